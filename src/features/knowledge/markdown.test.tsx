// @vitest-environment jsdom
/** The note body renderer: Markdown structure, and nothing executable gets through. */
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, parseBlocks, safeHref } from './markdown';

describe('parseBlocks', () => {
  it('reads headings, lists, code, quotes, tables and paragraphs', () => {
    const blocks = parseBlocks(
      '# Title\n\nSome *text*\nmore.\n\n- a\n- [x] done\n\n1. one\n2. two\n\n```ts\nconst x = 1;\n```\n\n> quoted\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n---',
    );
    expect(blocks.map((b) => b.type)).toEqual([
      'heading',
      'paragraph',
      'list',
      'list',
      'code',
      'quote',
      'table',
      'rule',
    ]);
    expect(blocks[2]).toMatchObject({
      ordered: false,
      items: [
        { text: 'a', checked: null },
        { text: 'done', checked: true },
      ],
    });
    expect(blocks[4]).toMatchObject({ lang: 'ts', text: 'const x = 1;' });
    expect(blocks[6]).toMatchObject({ header: ['A', 'B'], rows: [['1', '2']] });
  });
});

describe('Markdown', () => {
  it('renders inline formatting as elements', () => {
    const { container } = render(<Markdown source={'**bold** _it_ `code` ~~gone~~ [link](https://example.com)'} />);
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('em')?.textContent).toBe('it');
    expect(container.querySelector('code')?.textContent).toBe('code');
    expect(container.querySelector('del')?.textContent).toBe('gone');
    const a = container.querySelector('a')!;
    expect(a.getAttribute('href')).toBe('https://example.com');
    expect(a.getAttribute('rel')).toContain('noopener');
  });

  it('shows raw HTML as text and drops script links', () => {
    const { container } = render(
      <Markdown source={'<img src=x onerror="alert(1)"> <script>alert(2)</script>\n\n[click](javascript:alert(3))'} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('<script>alert(2)</script>');
    expect(container.textContent).toContain('click');
  });

  it('safeHref keeps only safe targets', () => {
    expect(safeHref('https://a.b')).toBe('https://a.b');
    expect(safeHref('mailto:x@y.z')).toBe('mailto:x@y.z');
    expect(safeHref('/docs')).toBe('/docs');
    expect(safeHref('//evil.example')).toBeNull();
    expect(safeHref('JavaScript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
  });
});
