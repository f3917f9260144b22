/** Light / dark / system theme, kept in localStorage and applied as a class on <html>. */
export type Theme = 'light' | 'dark' | 'system';
const KEY = 'console-theme';

export function readTheme(): Theme {
  const v = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
  return v === 'light' || v === 'dark' ? v : 'system';
}

export function applyTheme(theme: Theme): void {
  const dark = theme === 'dark' || (theme === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

export function saveTheme(theme: Theme): void {
  if (theme === 'system') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, theme);
  applyTheme(theme);
}
