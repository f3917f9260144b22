/**
 * A session's message thread (cursor pages, oldest first) and the composer that sends a message. The thread
 * scrolls in a box of fixed height, so the composer below it stays where it first painted while the messages
 * load, as more pages are read and as the agent answers (no layout shift), and stays in reach of a long thread.
 */
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { isTerminalStatus, SESSION_LIMITS, SendMessageBody, type Session } from '@/api/operations/sessions';
import type { UploadedAttachment } from '@/api/operations/attachments';
import { FileUpload, type FileUploadHandle } from '@/components/file-upload';
import { Button } from '@/components/ui/button';
import { Field, textareaClass } from '@/components/field';
import { EmptyState, Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { RelativeTime } from '@/components/relative-time';
import { errorMessage, isApiError } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { messagesInfiniteQueryOptions, readThreadToEnd, useSendMessage, type SessionPageScope } from './api';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';

export function SessionThread({ session, scope = 'org' }: { session: Session; scope?: SessionPageScope }) {
  const { org_id: orgId, session_id: sessionId } = session;
  const query = useInfiniteQuery(messagesInfiniteQueryOptions(orgId, sessionId));
  const messages = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const { refetch } = query;
  const queryClient = useQueryClient();
  // New messages come with a change of the session: read the thread to its end when the session moves (the
  // first read is the query's own).
  const seen = useRef(`${session.updated_at}|${session.status}`);
  useEffect(() => {
    const key = `${session.updated_at}|${session.status}`;
    if (seen.current === key) return;
    seen.current = key;
    readThreadToEnd(queryClient, orgId, sessionId);
  }, [session.updated_at, session.status, queryClient, orgId, sessionId]);

  // The box follows the newest message while it is scrolled to its end (the first read included), as a chat
  // does; once the admin scrolls up to read, it stays where they are.
  const box = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && atEnd.current) el.scrollTop = el.scrollHeight;
  }, [messages.length]);

  return (
    <section aria-labelledby="thread-heading" className="flex flex-col gap-3">
      <h2 id="thread-heading" className="text-base font-semibold">
        Thread
      </h2>
      <div
        ref={box}
        // Focusable: a keyboard can scroll it.
        tabIndex={0}
        data-testid="thread-scroller"
        onScroll={(e) => {
          const el = e.currentTarget;
          atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
        className="flex h-[clamp(14rem,calc(100dvh-26rem),36rem)] flex-col gap-2 overflow-y-auto overscroll-contain rounded-lg border border-line bg-bg p-2 focus-visible:outline-2 focus-visible:outline-accent"
      >
        {query.isPending ? (
          <Spinner label="Loading messages…" />
        ) : query.error && messages.length === 0 ? (
          <ProblemView error={query.error} onRetry={() => void refetch()} />
        ) : messages.length === 0 ? (
          <EmptyState title="No messages yet" />
        ) : (
          <ol aria-label="Thread" className="flex flex-col gap-2">
            {messages.map((m) => (
              <li
                key={m.event_id}
                className={cn(
                  'max-w-[85%] rounded-lg border px-3 py-2 text-sm',
                  m.source === 'user'
                    ? 'self-end border-accent/30 bg-accent/10'
                    : m.source === 'guardrail'
                      ? 'self-end border-danger/40 bg-danger/5'
                      : 'self-start border-line bg-surface',
                )}
              >
                <div className="mb-1 flex items-center gap-2 text-xs text-muted">
                  <span className={cn('font-semibold', m.source === 'guardrail' && 'text-danger')}>
                    {m.source === 'user'
                      ? 'User'
                      : m.source === 'agent'
                        ? 'Agent'
                        : m.source === 'guardrail'
                          ? 'Guardrail · blocked'
                          : m.source}
                  </span>
                  <RelativeTime value={m.created_at} />
                </div>
                <p className="break-words whitespace-pre-wrap">{m.message}</p>
              </li>
            ))}
          </ol>
        )}
        {query.hasNextPage && (
          <Button
            size="sm"
            className="self-center"
            onClick={() => void query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
          >
            {query.isFetchingNextPage ? 'Loading…' : 'Load more messages'}
          </Button>
        )}
        {query.error && messages.length > 0 ? (
          <ProblemView compact error={query.error} onRetry={() => void query.fetchNextPage()} />
        ) : null}
      </div>
      <Composer session={session} scope={scope} />
    </section>
  );
}

/** The message with the uploaded files named in it, one `ATTACHMENT:"<url>"` line each (the API's convention). */
export function withAttachments(text: string, urls: readonly string[]): string {
  return urls.length === 0 ? text : `${text}\n\n${urls.map((u) => `ATTACHMENT:"${u}"`).join('\n')}`;
}

function Composer({ session, scope }: { session: Session; scope: SessionPageScope }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const uploads = useRef<FileUploadHandle>(null);
  const [uploading, setUploading] = useState(false);
  // A new widget (no files) after each message sent.
  const [uploadKey, setUploadKey] = useState(0);
  const send = useSendMessage(session.org_id, session.session_id, scope);
  // The enterprise-wide message operation needs ManageAccountSessions; the organization's, UseAgentSessions.
  const permission = scope === 'enterprise' ? 'ManageAccountSessions' : 'UseAgentSessions';
  const can = useHasPermission(permission);
  const resumes =
    session.status === 'suspended' || (isTerminalStatus(session.status) && session.status_detail !== 'terminated');
  const hint =
    session.status === 'suspended'
      ? 'This session is suspended: sending a message resumes it.'
      : resumes
        ? `This session ended (${session.status}): sending a message resumes it.`
        : `The agent reads it at its next step. At most ${formatNumber(SESSION_LIMITS.message)} characters.`;

  const submit = async () => {
    if (uploading || send.isPending) return;
    // The text is checked before anything is uploaded: a message refused as it is leaves no file stored.
    const problem = (message: string) => SendMessageBody.safeParse({ message }).error?.issues[0]?.message;
    if (problem(text)) {
      setError(problem(text));
      return;
    }
    setError(undefined);
    let attached: UploadedAttachment[];
    try {
      // The chosen files upload now, with the message: an abandoned one leaves nothing stored.
      attached = (await uploads.current?.uploadAll()) ?? [];
    } catch (err) {
      setError(errorMessage(err));
      return;
    }
    const message = withAttachments(
      text,
      attached.map((f) => f.url),
    );
    if (problem(message)) {
      setError(problem(message));
      return;
    }
    send.mutate(message, {
      onSuccess: () => {
        setText('');
        setUploadKey((k) => k + 1);
      },
    });
  };
  const serverError =
    send.error && isApiError(send.error) && send.error.status === 422 ? send.error.fieldErrors[0]?.msg : undefined;

  return (
    <form
      className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-3"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Field label="Message" hint={hint} error={error ?? serverError}>
        <textarea
          className={cn(textareaClass, 'min-h-20')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void submit();
          }}
          placeholder={resumes ? 'Tell the agent how to continue…' : 'Write to the agent…'}
        />
      </Field>
      <FileUpload
        key={uploadKey}
        ref={uploads}
        orgId={session.org_id}
        label="Files"
        description="Files for the agent, named in the message."
        sentWhen="when you send the message"
        onBusyChange={setUploading}
      />
      {send.error && !serverError ? <ProblemView compact error={send.error} /> : null}
      <div className="flex items-center justify-end gap-2">
        {send.isSuccess && !send.isPending && (
          <span className="text-xs text-success" role="status">
            Message sent.
          </span>
        )}
        <Button
          type="submit"
          variant="primary"
          disabled={send.isPending || uploading || can === false}
          title={missingPermissionTitle(permission, can)}
        >
          {uploading ? 'Uploading files…' : send.isPending ? 'Sending…' : resumes ? 'Send and resume' : 'Send message'}
        </Button>
      </div>
    </form>
  );
}
