// as: src/features/alpha/deep/er/panel.ts
// expect: 2
// Another feature by alias, and the app shell.
import { membersQuery } from '@/features/members/api';
import { AppShell } from '@/app/shell/app-shell';

export const used = [membersQuery, AppShell];
