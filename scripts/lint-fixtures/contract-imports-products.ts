// as: src/api/operations/widget.ts
// expect: 5
// The contract importing the products and the UI.
import { readJsonBody } from '../../node/read-body';
import { createDispatcher } from '../../sandbox/dispatcher';
import { createConsoleApp } from '@/server/console';
import { membersQuery } from '../../features/members/api';
import { Button } from '@/components/ui/button';

export const used = [readJsonBody, createDispatcher, createConsoleApp, membersQuery, Button];
