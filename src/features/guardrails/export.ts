/** The CSV export of the filtered violations: one row per violation, times in UTC and as Unix seconds. */
import type { GuardrailViolation } from '@/api/operations/guardrails';
import { toCsv } from '@/lib/csv';
import { formatUtc } from '@/lib/format';

export const VIOLATION_CSV_HEADER = [
  'created_at_utc',
  'created_at',
  'violation_id',
  'guardrail_id',
  'guardrail_name',
  'guardrail_type',
  'org_id',
  'session_id',
  'event_id',
  'action_taken',
  'confidence_score',
  'reasoning',
  'user_message',
] as const;

export function violationsCsv(items: readonly GuardrailViolation[]): string {
  return toCsv(
    VIOLATION_CSV_HEADER,
    items.map((v) => [
      formatUtc(v.created_at),
      v.created_at,
      v.violation_id,
      v.guardrail_id,
      v.guardrail_name,
      v.guardrail_type ?? '',
      v.org_id,
      v.session_id ?? '',
      v.event_id,
      v.action_taken,
      v.confidence_score,
      v.reasoning,
      v.user_message,
    ]),
  );
}

export function exportFileName(scope: string, nowMs: number): string {
  const stamp = new Date(nowMs).toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return `guardrail-violations-${scope}-${stamp}.csv`;
}
