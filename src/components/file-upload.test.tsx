// @vitest-environment jsdom
/**
 * Files are uploaded when the form is submitted, never when chosen: an abandoned form leaves nothing stored (the
 * API cannot delete an attachment). A file already uploaded is not sent twice; a refused one stops the submit.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UploadedAttachment } from '@/api/operations/attachments';
import type * as Attachments from '@/lib/attachments';
import { FileUpload, UploadsFailedError, type FileUploadHandle } from './file-upload';

const uploadAttachment = vi.hoisted(() => vi.fn());
vi.mock('@/lib/attachments', async (original) => ({
  ...(await original<typeof Attachments>()),
  uploadAttachment,
}));

afterEach(() => {
  cleanup();
  uploadAttachment.mockReset();
});

const attachment = (name: string): UploadedAttachment =>
  ({ attachment_id: `a-${name}`, name, url: `https://files.example/org-1/a-${name}/${name}` }) as UploadedAttachment;

function choose(...files: File[]) {
  fireEvent.change(screen.getByLabelText('Choose files for attachments'), { target: { files } });
}

describe('FileUpload', () => {
  it('sends nothing when files are chosen; uploadAll sends each once and answers their attachments', async () => {
    uploadAttachment.mockImplementation((_org: string, file: File) => ({
      promise: Promise.resolve(attachment(file.name)),
      abort: () => undefined,
    }));
    const ref = createRef<FileUploadHandle>();
    render(<FileUpload ref={ref} orgId="org-1" sentWhen="when you create the session" />);
    choose(new File(['one'], 'one.txt'), new File(['two'], 'two.txt'));
    expect(await screen.findAllByText('Not uploaded yet: it is uploaded when you create the session.')).toHaveLength(2);
    expect(uploadAttachment).not.toHaveBeenCalled();

    let uploaded: UploadedAttachment[] = [];
    await act(async () => {
      uploaded = await ref.current!.uploadAll();
    });
    expect(uploaded.map((a) => a.name)).toEqual(['one.txt', 'two.txt']);
    expect(uploadAttachment).toHaveBeenCalledTimes(2);
    // A second submit (the first one's request failed after the uploads) sends nothing again.
    await act(async () => {
      uploaded = await ref.current!.uploadAll();
    });
    expect(uploaded).toHaveLength(2);
    expect(uploadAttachment).toHaveBeenCalledTimes(2);
  });

  it('a file refused before sending stops the submit with its reason, and nothing is sent', async () => {
    const ref = createRef<FileUploadHandle>();
    render(<FileUpload ref={ref} orgId="org-1" />);
    choose(new File([''], 'empty.txt'));
    await screen.findByText('empty.txt is empty');
    await expect(ref.current!.uploadAll()).rejects.toThrow(UploadsFailedError);
    await expect(ref.current!.uploadAll()).rejects.toThrow('empty.txt could not be uploaded: empty.txt is empty');
    expect(uploadAttachment).not.toHaveBeenCalled();
  });
});
