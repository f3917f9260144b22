/**
 * Joins class names, skipping falsy ones, and resolves conflicting Tailwind classes so that the last one wins
 * (`cn('h-9 px-3', 'h-7')` is `px-3 h-7`): a caller's `className` overrides a primitive's defaults.
 * tailwind-merge's default configuration already reads the theme's own colour tokens (`text-accent`,
 * `bg-surface-2`, `border-line`, see src/styles.css) as colours, distinct from sizes such as `text-sm`;
 * cn.test.ts checks that, so a token that would need `extendTailwindMerge` shows up there.
 */
import { twMerge } from 'tailwind-merge';

export function cn(...parts: Array<string | false | null | undefined>): string {
  return twMerge(parts.filter(Boolean).join(' '));
}
