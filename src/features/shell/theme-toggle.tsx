/** Switches light / dark / system theme. */
import { Monitor, Moon, Sun } from 'lucide-react';
import { useState } from 'react';
import { readTheme, saveTheme, type Theme } from '@/lib/theme';

const NEXT: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<Theme, string> = { system: 'System theme', light: 'Light theme', dark: 'Dark theme' };

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(readTheme);
  const Icon = theme === 'dark' ? Moon : theme === 'light' ? Sun : Monitor;
  return (
    <button
      type="button"
      className="inline-flex size-9 items-center justify-center rounded-md border border-line hover:bg-surface-2"
      aria-label={`${LABEL[theme]} (switch to ${LABEL[NEXT[theme]].toLowerCase()})`}
      title={LABEL[theme]}
      onClick={() => {
        const next = NEXT[theme];
        saveTheme(next);
        setTheme(next);
      }}
    >
      <Icon className="size-4" aria-hidden />
    </button>
  );
}
