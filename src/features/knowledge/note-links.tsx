/** Links between the knowledge screens, for either scope (enterprise routes or one organization's routes). */
import { Link, linkOptions } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { NoteScope } from './api';

type Target = 'list' | 'new' | 'view' | 'edit';

/** The typed route options of a knowledge screen in this scope. */
export function knowledgeRoute(scope: NoteScope, target: Target, noteId = '') {
  if (scope.kind === 'enterprise') {
    switch (target) {
      case 'list':
        return linkOptions({ to: '/knowledge' });
      case 'new':
        return linkOptions({ to: '/knowledge/new' });
      case 'view':
        return linkOptions({ to: '/knowledge/$noteId', params: { noteId } });
      case 'edit':
        return linkOptions({ to: '/knowledge/$noteId/edit', params: { noteId } });
    }
  }
  const { orgId } = scope;
  switch (target) {
    case 'list':
      return linkOptions({ to: '/orgs/$orgId/knowledge', params: { orgId } });
    case 'new':
      return linkOptions({ to: '/orgs/$orgId/knowledge/new', params: { orgId } });
    case 'view':
      return linkOptions({ to: '/orgs/$orgId/knowledge/$noteId', params: { orgId, noteId } });
    case 'edit':
      return linkOptions({ to: '/orgs/$orgId/knowledge/$noteId/edit', params: { orgId, noteId } });
  }
}

export function KnowledgeLink({
  scope,
  target,
  noteId,
  className,
  children,
}: {
  scope: NoteScope;
  target: Target;
  noteId?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Link {...knowledgeRoute(scope, target, noteId)} className={className}>
      {children}
    </Link>
  );
}
