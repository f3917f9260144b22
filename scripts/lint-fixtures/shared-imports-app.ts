// as: src/lib/helpers.ts
// expect: 3
// Shared code importing the app shell, a route (also through import()) and a feature.
import { AppShell } from '../app/shell/app-shell';
import { features } from './../features/members/api';

export const used = [AppShell, features];
export const route = () => import('@/routes/__root');
