// @vitest-environment jsdom
/**
 * A search box that follows the URL: an edit reaches the URL after the pause; an edit still pending when the
 * user follows a link to another page is dropped, so it never navigates back over the page they chose (the
 * page's loader may still be running when the pause ends).
 */
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Link,
  Outlet,
  RouterProvider,
  useNavigate,
  useSearch,
} from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDebouncedInput } from './debounce';

beforeEach(() => {
  window.scrollTo = () => {};
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function List() {
  const { q } = useSearch({ strict: false }) as { q?: string };
  const navigate = useNavigate();
  const [text, setText] = useDebouncedInput(q ?? '', (v) => void navigate({ to: '/', search: { q: v || undefined } }));
  return (
    <>
      <input aria-label="Search" value={text} onChange={(e) => setText(e.target.value)} />
      <Link to="/item">Open the item</Link>
    </>
  );
}

function setup() {
  const root = createRootRoute({ component: () => <Outlet /> });
  const list = createRoute({
    getParentRoute: () => root,
    path: '/',
    validateSearch: (s: Record<string, unknown>) => ({ q: typeof s.q === 'string' ? s.q : undefined }),
    component: List,
  });
  // A page whose loader takes longer than the pause: the list stays mounted meanwhile.
  const item = createRoute({
    getParentRoute: () => root,
    path: '/item',
    loader: () => new Promise((r) => setTimeout(r, 1000)),
    component: () => <h1>The item</h1>,
  });
  const router = createRouter({
    routeTree: root.addChildren([list, item]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  render(<RouterProvider router={router} />);
  return router;
}

describe('useDebouncedInput', () => {
  it('commits the text to the URL after the pause', async () => {
    const router = setup();
    const box = await screen.findByLabelText('Search');
    vi.useFakeTimers();
    fireEvent.change(box, { target: { value: 'triage' } });
    expect(router.state.location.search).toEqual({});
    await act(() => vi.advanceTimersByTimeAsync(400));
    expect(router.state.location.search).toEqual({ q: 'triage' });
  });

  it('drops a pending edit when the user leaves for another page', async () => {
    const router = setup();
    const box = await screen.findByLabelText('Search');
    vi.useFakeTimers();
    fireEvent.change(box, { target: { value: 'triage' } });
    fireEvent.click(screen.getByText('Open the item'));
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(router.state.location.pathname).toBe('/item');
    expect(screen.getByRole('heading', { name: 'The item' })).toBeTruthy();
  });
});
