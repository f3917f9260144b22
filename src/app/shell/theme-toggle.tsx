/** Switches light / dark / system theme. */
import { Monitor, Moon, Sun } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { readTheme, saveTheme, type Theme } from '@/lib/theme';

const NEXT: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<Theme, string> = { system: 'System theme', light: 'Light theme', dark: 'Dark theme' };

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(readTheme);
  const Icon = theme === 'dark' ? Moon : theme === 'light' ? Sun : Monitor;
  return (
    // A native title, not the Radix tooltip: the shell is on the first screen, and the label says it all.
    <Button
      size="icon"
      title={LABEL[theme]}
      aria-label={`${LABEL[theme]} (switch to ${LABEL[NEXT[theme]].toLowerCase()})`}
      onClick={() => {
        const next = NEXT[theme];
        saveTheme(next);
        setTheme(next);
      }}
    >
      <Icon className="size-4" aria-hidden />
    </Button>
  );
}
