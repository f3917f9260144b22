/**
 * The query keys of settings history (`./settings-history.ts`), in a module without schemas: the settings
 * screens' data modules (the organizations list is the first screen) invalidate them after every change, and
 * must not bring the history's schemas into the first screen's scripts for that.
 */
import type { SettingKind } from './settings-history';

export const settingsHistoryKeys = {
  all: ['settings-history'] as const,
  list: (filter: { kind?: readonly SettingKind[]; key?: string; key_prefix?: string }) =>
    [...settingsHistoryKeys.all, 'list', filter] as const,
};
