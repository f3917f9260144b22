/**
 * The header's menu on a phone (Radix DropdownMenu): the times and theme toggles and Sign out, which sit in the
 * header itself on wider screens. Loaded after the first screen by ./header-menu.tsx, which shows its button
 * until then: the menu library is not first-screen JavaScript.
 */
import { EllipsisVertical, LogOut } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { readTheme, saveTheme, type Theme } from '@/lib/theme';
import { setTimeDisplay, useTimeDisplay } from '@/lib/time-display';

const THEMES: Array<[Theme, string]> = [
  ['light', 'Light theme'],
  ['dark', 'Dark theme'],
  ['system', 'System theme'],
];

export interface HeaderMenuProps {
  onSignOut?: (() => void) | undefined;
  className?: string | undefined;
}

interface HeaderMenuContentProps extends HeaderMenuProps {
  /** Open at once: the button was pressed before the menu's code had loaded. */
  defaultOpen: boolean;
}

export function HeaderMenuContent({ onSignOut, className, defaultOpen }: HeaderMenuContentProps) {
  const display = useTimeDisplay();
  const [theme, setTheme] = useState<Theme>(readTheme);
  return (
    // Not modal: a modal menu hides the rest of the page from assistive technology while it stays focusable.
    <DropdownMenu modal={false} defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <Button size="icon" aria-label="More: times, theme and sign out" className={className}>
          <EllipsisVertical className="size-4" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuCheckboxItem
          checked={display === 'absolute'}
          onCheckedChange={(on) => setTimeDisplay(on ? 'absolute' : 'relative')}
        >
          Show absolute times
        </DropdownMenuCheckboxItem>
        <DropdownMenuSeparator />
        <DropdownMenuLabel>Theme</DropdownMenuLabel>
        <DropdownMenuRadioGroup
          value={theme}
          onValueChange={(v) => {
            const next = THEMES.find(([t]) => t === v)?.[0] ?? 'system';
            saveTheme(next);
            setTheme(next);
          }}
        >
          {THEMES.map(([value, label]) => (
            <DropdownMenuRadioItem key={value} value={value}>
              {label}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
        {onSignOut && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={onSignOut}>
              <LogOut className="size-4" aria-hidden />
              Sign out
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
