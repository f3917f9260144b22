/** Links between the playbook screens, for either scope (enterprise routes or one organization's routes). */
import { Link, linkOptions } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { PlaybookScope } from './api';

type Target = 'list' | 'new' | 'view' | 'edit';

/** The typed route options of a playbook screen in this scope. */
export function playbookRoute(scope: PlaybookScope, target: Target, playbookId = '') {
  if (scope.kind === 'enterprise') {
    switch (target) {
      case 'list':
        return linkOptions({ to: '/playbooks' });
      case 'new':
        return linkOptions({ to: '/playbooks/new' });
      case 'view':
        return linkOptions({ to: '/playbooks/$playbookId', params: { playbookId } });
      case 'edit':
        return linkOptions({ to: '/playbooks/$playbookId/edit', params: { playbookId } });
    }
  }
  const { orgId } = scope;
  switch (target) {
    case 'list':
      return linkOptions({ to: '/orgs/$orgId/playbooks', params: { orgId } });
    case 'new':
      return linkOptions({ to: '/orgs/$orgId/playbooks/new', params: { orgId } });
    case 'view':
      return linkOptions({ to: '/orgs/$orgId/playbooks/$playbookId', params: { orgId, playbookId } });
    case 'edit':
      return linkOptions({ to: '/orgs/$orgId/playbooks/$playbookId/edit', params: { orgId, playbookId } });
  }
}

/** The create-session form of `orgId` with this playbook chosen. */
export function startSessionRoute(orgId: string, playbookId: string) {
  return linkOptions({ to: '/orgs/$orgId/sessions/new', params: { orgId }, search: { playbook: playbookId } });
}

export function PlaybookLink({
  scope,
  target,
  playbookId,
  className,
  children,
}: {
  scope: PlaybookScope;
  target: Target;
  playbookId?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Link {...playbookRoute(scope, target, playbookId)} className={className}>
      {children}
    </Link>
  );
}
