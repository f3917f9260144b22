/** Attachments in the browser: the size rule before sending, and download links through the console. */
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_LIMITS } from '@/api/operations/attachments';
import { attachmentDownloadHref, attachmentName, attachmentRefusal, formatBytes } from './attachments';

describe('attachmentRefusal', () => {
  it('refuses a file over the limit, an empty one and a nameless one; accepts one at the limit', () => {
    expect(attachmentRefusal({ name: 'big.bin', size: ATTACHMENT_LIMITS.maxBytes + 1 })).toBe(
      'big.bin is 10.0 MiB (10,485,761 bytes); files are at most 10 MiB',
    );
    expect(attachmentRefusal({ name: 'e.txt', size: 0 })).toBe('e.txt is empty');
    expect(attachmentRefusal({ name: '   ', size: 3 })).toMatch(/file name/i);
    expect(attachmentRefusal({ name: 'ok.bin', size: ATTACHMENT_LIMITS.maxBytes })).toBeNull();
  });

  it('formats sizes in binary units', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MiB');
    expect(formatBytes(250 * 1024)).toBe('250 KiB');
  });
});

describe('attachmentDownloadHref', () => {
  it('maps an attachment URL of any host to the console’s own download path', () => {
    const url = 'https://api.example.com/v3/organizations/org-1/attachments/0b5c-11/r%C3%A9sum%C3%A9%20v2.pdf';
    expect(attachmentDownloadHref(url)).toBe(
      '/api/v3/organizations/org-1/attachments/0b5c-11/r%C3%A9sum%C3%A9%20v2.pdf',
    );
    expect(attachmentName(url)).toBe('résumé v2.pdf');
    expect(attachmentDownloadHref('http://127.0.0.1:8787/v3/organizations/org-2/attachments/u/a.txt')).toBe(
      '/api/v3/organizations/org-2/attachments/u/a.txt',
    );
  });

  it('answers null for URLs that are not attachment URLs (never a link to another host)', () => {
    expect(attachmentDownloadHref('https://evil.example/x.pdf')).toBeNull();
    expect(attachmentDownloadHref('https://api.example.com/v3/organizations/org-1/sessions/s')).toBeNull();
    expect(attachmentDownloadHref('javascript:alert(1)')).toBeNull();
    expect(attachmentName('https://evil.example/x.pdf')).toBe('x.pdf');
  });
});
