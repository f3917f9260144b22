/** Links between the knowledge screens, for either scope (enterprise routes or one organization's routes). */
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { NoteScope } from './api';

type Target = 'list' | 'new' | 'view' | 'edit';

/** Route path and params of a knowledge screen in this scope. */
export function knowledgeRoute(
  scope: NoteScope,
  target: Target,
  noteId?: string,
): { to: string; params: Record<string, string> } {
  const base = scope.kind === 'enterprise' ? '/knowledge' : '/orgs/$orgId/knowledge';
  const params: Record<string, string> = scope.kind === 'enterprise' ? {} : { orgId: scope.orgId };
  if (noteId) params.noteId = noteId;
  const to = {
    list: base,
    new: `${base}/new`,
    view: `${base}/$noteId`,
    edit: `${base}/$noteId/edit`,
  }[target];
  return { to, params };
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
  const { to, params } = knowledgeRoute(scope, target, noteId);
  return (
    <Link to={to as '/'} params={params as never} className={className}>
      {children}
    </Link>
  );
}
