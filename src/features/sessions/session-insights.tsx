/** Session insights: generate them, then show the analysis once the API has it ready. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { formatDateTime } from '@/lib/format';
import { insightsQueryOptions, useGenerateInsights, type SessionPageScope } from './api';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';

/** How often the console checks for insights being generated. */
const INSIGHTS_POLL_MS = 2_000;

export function SessionInsights({
  orgId,
  sessionId,
  scope = 'org',
}: {
  orgId: string;
  sessionId: string;
  scope?: SessionPageScope;
}) {
  const [requested, setRequested] = useState<string | null>(null);
  const generate = useGenerateInsights(orgId, sessionId, scope);
  const can = useHasPermission('ManageOrgSessions');
  const query = useQuery({
    ...insightsQueryOptions(orgId, sessionId),
    refetchInterval: (q) => {
      const d = q.state.data;
      if (d?.analysis) return false;
      return d?.analysis_status === 'in_progress' || requested ? INSIGHTS_POLL_MS : false;
    },
    refetchIntervalInBackground: false,
  });
  const data = query.data;
  const analysis = data?.analysis;
  const generating = !analysis && (data?.analysis_status === 'in_progress' || requested !== null);

  return (
    <section aria-labelledby="insights-heading" className="flex flex-col gap-2">
      <h2 id="insights-heading" className="text-base font-semibold">
        Insights
      </h2>
      {query.isPending ? (
        <Spinner label="Loading insights…" />
      ) : query.error && !data ? (
        <ProblemView error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          {data && (
            <p className="text-sm text-muted">
              {data.num_agent_messages} agent and {data.num_user_messages} user messages
              {data.session_size ? ` · size ${data.session_size}` : ''}
            </p>
          )}
          {analysis ? (
            <div className="flex flex-col gap-3 text-sm" data-testid="insights-analysis">
              {analysis.classification && (
                <p>
                  <span className="font-medium">Classification:</span> {analysis.classification.category}
                  {analysis.classification.summary ? ` — ${analysis.classification.summary}` : ''}
                </p>
              )}
              {analysis.issues && analysis.issues.length > 0 && (
                <div>
                  <h3 className="font-medium">Issues</h3>
                  <ul className="list-disc pl-5">
                    {analysis.issues.map((i) => (
                      <li key={i.title}>
                        {i.title}
                        {i.severity ? ` (${i.severity})` : ''}
                        {i.detail ? `: ${i.detail}` : ''}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              {analysis.action_items && analysis.action_items.length > 0 && (
                <div>
                  <h3 className="font-medium">Action items</h3>
                  <ul className="list-disc pl-5">
                    {analysis.action_items.map((a) => (
                      <li key={a}>{a}</li>
                    ))}
                  </ul>
                </div>
              )}
              {analysis.suggested_prompt && (
                <div>
                  <h3 className="font-medium">Suggested prompt</h3>
                  <p className="rounded-md bg-surface-2 p-2 whitespace-pre-wrap">{analysis.suggested_prompt}</p>
                </div>
              )}
              {analysis.timeline && analysis.timeline.length > 0 && (
                <div>
                  <h3 className="font-medium">Timeline</h3>
                  <ol className="flex flex-col gap-1">
                    {analysis.timeline.map((t, i) => (
                      <li key={i} className="text-xs">
                        <span className="text-muted">{t.at ? formatDateTime(t.at) : ''}</span> {t.title}
                        {t.detail ? ` — ${t.detail}` : ''}
                      </li>
                    ))}
                  </ol>
                </div>
              )}
            </div>
          ) : generating ? (
            <div role="status" className="flex items-center gap-2 text-sm text-muted">
              <span className="size-4 animate-spin rounded-full border-2 border-line border-t-accent" aria-hidden />
              Generating insights…{requested === 'already_exists' ? ' (they were already requested)' : ''}
            </div>
          ) : (
            <div className="flex flex-wrap items-center gap-2">
              <p className="text-sm text-muted">No insights yet.</p>
              <Button
                size="sm"
                onClick={() => generate.mutate(undefined, { onSuccess: (r) => setRequested(r.status) })}
                disabled={generate.isPending || can === false}
                title={missingPermissionTitle('ManageOrgSessions', can)}
              >
                {generate.isPending ? 'Starting…' : 'Generate insights'}
              </Button>
            </div>
          )}
          {generate.error ? <ProblemView compact error={generate.error} /> : null}
        </>
      )}
    </section>
  );
}
