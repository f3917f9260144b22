// @vitest-environment jsdom
/** The note body renderer: Markdown structure, and nothing executable gets through. */
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, parseBlocks, safeHref } from '@/components/markdown';

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

/** Targets that run script or lead to another site while looking local: none may become a link. */
const ATTACKS = [
  '//evil.example',
  '//evil.example/x',
  '/\\evil.example/x',
  '\\\\evil.example/x',
  '/docs\\..\\x',
  'https:\\\\evil.example',
  'https://ok.example\\@evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  'javascript:alert(1)',
  'JAVASCRIPT:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\tjavascript:alert(1)',
  '\u0001javascript:alert(1)',
  '\u0000javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'javascript&colon;alert(1)',
  '&#106;avascript:alert(1)',
  '&#x6A;avascript:alert(1)',
  'javascript&#58;alert(1)',
  '%6Aavascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'DATA:text/html;base64,PHNjcmlwdD4=',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'file:///etc/passwd',
  'http:evil.example',
  'https:/evil.example',
  'https:///evil.example',
  'http://',
  '',
  '   ',
];

describe('links: only http(s), mailto, #anchors and same-site /paths', () => {
  it.each(ATTACKS)('safeHref refuses %j', (target) => {
    expect(safeHref(target)).toBeNull();
  });

  it.each([
    'https://example.com',
    'http://example.com/a?b=c#d',
    'HTTPS://EXAMPLE.COM/x',
    'https://en.wikipedia.org/wiki/Foo_(bar)',
    'mailto:someone@example.com',
    '/docs',
    '/knowledge/notes/n-1?x=1#y',
    '#section-2',
  ])('safeHref keeps %j', (target) => {
    expect(safeHref(target)).toBe(target);
  });

  it('renders a refused link as its text only: [x](javascript:alert(1)) is exactly "x"', () => {
    const { container } = render(<Markdown source={'[x](javascript:alert(1))'} />);
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toBe('x');
  });

  it.each([
    '[x](//evil.example)',
    '[x](/\\evil.example/x)',
    '[x](https:\\\\evil.example)',
    '[x](JaVaScRiPt:alert(document.cookie))',
    '[x](&#106;avascript:alert(1))',
    '[x](javascript&colon;alert(1))',
    '[x](data:text/html,hi)',
    '[x](vbscript:msgbox(1))',
    '[x](javascript:alert(1) "title")',
  ])('renders %j as the plain text "x"', (source) => {
    const { container } = render(<Markdown source={source} />);
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toBe('x');
  });

  it('never links an autolink with a backslash', () => {
    const { container } = render(<Markdown source={'<https://ok.example\\@evil.example/>'} />);
    expect(container.querySelector('a')).toBeNull();
  });

  it('keeps good links working, parentheses in the target included', () => {
    const { container } = render(
      <Markdown
        source={
          '[w](https://en.wikipedia.org/wiki/Foo_(bar)) [d](/docs/x) [a](#top) [m](mailto:a@b.c) <https://example.com/p>'
        }
      />,
    );
    const links = [...container.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['w', 'https://en.wikipedia.org/wiki/Foo_(bar)'],
      ['d', '/docs/x'],
      ['a', '#top'],
      ['m', 'mailto:a@b.c'],
      ['https://example.com/p', 'https://example.com/p'],
    ]);
    expect(container.textContent).toBe('w d a m https://example.com/p');
  });
});
