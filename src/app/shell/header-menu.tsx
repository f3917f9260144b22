/**
 * The header's menu button on a phone (times, theme, Sign out; ./header-menu-content.tsx). The menu's code
 * (Radix DropdownMenu and its focus and scroll helpers, ~10 KB compressed) loads when the browser is idle after
 * the first screen, or at once when the button is pointed at, focused or pressed; until then the same button
 * shows, and a press before the code is in opens the menu as soon as it is.
 */
import { EllipsisVertical } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { HeaderMenuProps } from './header-menu-content';
import { whenIdle } from './idle';

const loadMenu = () => import('./header-menu-content');
const Menu = lazy(() => loadMenu().then((m) => ({ default: m.HeaderMenuContent })));
const preload = () => void loadMenu().catch(() => undefined);

export function HeaderMenu(props: HeaderMenuProps) {
  // null: the plain button; 'closed' | 'open': the menu, as it should first show.
  const [menu, setMenu] = useState<'closed' | 'open' | null>(null);
  useEffect(() => whenIdle(() => setMenu((m) => m ?? 'closed')), []);
  const button = (
    <Button
      size="icon"
      aria-label="More: times, theme and sign out"
      aria-haspopup="menu"
      className={props.className}
      onPointerEnter={preload}
      onFocus={preload}
      onClick={() => setMenu('open')}
    >
      <EllipsisVertical className="size-4" aria-hidden />
    </Button>
  );
  if (menu === null) return button;
  return (
    <Suspense fallback={button}>
      <Menu {...props} defaultOpen={menu === 'open'} />
    </Suspense>
  );
}
