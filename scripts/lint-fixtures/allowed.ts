// as: src/features/alpha/sub/panel.ts
// expect: 0
// What a feature may import: its own files (../api from a subfolder, statically or through import()),
// shared code and the contract.
import { alphaQuery } from '../api';
import { other } from '@/features/alpha/other';
import { cn } from '@/lib/utils';
import { Button } from '@/components/ui/button';
import { operationList } from '@/api/operations';

export const used = [alphaQuery, other, cn, Button, operationList];
export const load = () => import('../alpha-screen');
