/**
 * The doctor's conformance section: every allowed answer checked against its response schema and the paging
 * rules (`conformance.ts`), and the fields a screen relies on though the contract leaves them optional
 * (`SCREEN_FIELDS`): one that is absent is marked missing, naming the screen. Tallies what it found for the
 * report.
 */
import {
  SCREEN_FIELDS,
  screenName,
  type ConformanceIssue,
  type DoctorReport,
  type NotPublishedField,
  type ScreenField,
  type ScreenNeed,
} from '../../../api/console/doctor';
import type { OperationDef } from '../../../api/operations/define';
import { checkAnswer } from './conformance';
import type { GetResult } from './http';
import { plural, verdict, type DoctorRun } from './run';

/** Most unknown fields listed by place (all are counted). */
const MAX_UNKNOWN_LISTED = 200;

export interface ConformanceTally {
  /** Checks an allowed answer; answers its JSON (undefined when empty or not JSON) and what it found. */
  inspect(
    op: OperationDef,
    res: GetResult,
    query: Record<string, string>,
  ): { json: unknown; defects: number; unknown: number };
  /** The fields screens rely on that some answer lacked. */
  readonly notPublished: NotPublishedField[];
  section(): DoctorReport['conformance'];
}

/** The fields the screens rely on, by operation. */
function fieldNeedsOf(screens: readonly ScreenNeed[]) {
  const fieldNeeds = new Map<string, Array<{ screen: ScreenNeed; field: ScreenField }>>();
  for (const screen of screens) {
    for (const f of SCREEN_FIELDS[screen.to] ?? []) {
      const list = fieldNeeds.get(f.operation) ?? [];
      list.push({ screen, field: f });
      fieldNeeds.set(f.operation, list);
    }
  }
  return fieldNeeds;
}

/** The answer's JSON, or the issue that it has none. */
function parseAnswer(
  run: DoctorRun,
  op: OperationDef,
  res: GetResult,
): { json: unknown; issue: ConformanceIssue | null } {
  if (res.status === 204 || res.text.trim() === '') {
    const issue: ConformanceIssue | null = op.response
      ? { operation_id: op.id, where: '(body)', kind: 'missing_field', message: 'an empty answer' }
      : null;
    return { json: undefined, issue };
  }
  try {
    return { json: JSON.parse(res.text) as unknown, issue: null };
  } catch {
    return {
      json: undefined,
      issue: {
        operation_id: op.id,
        where: '(body)',
        kind: 'not_json',
        message: `the answer is not JSON (${run.clean(res.headers['content-type'] ?? 'no content type')})`,
      },
    };
  }
}

export function conformanceTally(run: DoctorRun): ConformanceTally {
  const fieldNeeds = fieldNeedsOf(run.screens);
  const issues: ConformanceIssue[] = [];
  const unknownFields: Array<{ operation_id: string; where: string }> = [];
  const notPublished: NotPublishedField[] = [];
  let unknownCount = 0;
  let checked = 0;
  let conforming = 0;

  /**
   * The fields the screens rely on that this answer lacks (in it, or in each item of a list): one issue per
   * screen, naming it. Absent only: a null is the upstream saying "none", which the screen can show.
   */
  function missingScreenFields(op: OperationDef, json: unknown): ConformanceIssue[] {
    const needs = fieldNeeds.get(op.id);
    if (!needs) return [];
    const list = (json as { items?: unknown } | null)?.items;
    const targets: Array<{ at: string; value: unknown }> =
      op.paginated && Array.isArray(list)
        ? list.map((value, i) => ({ at: `items[${i}].`, value }))
        : [{ at: '', value: json }];
    const out: ConformanceIssue[] = [];
    for (const { screen, field } of needs) {
      const lacking = targets.find(
        (t) =>
          t.value !== null &&
          typeof t.value === 'object' &&
          !Array.isArray(t.value) &&
          !Object.prototype.hasOwnProperty.call(t.value, field.field),
      );
      if (!lacking) continue;
      if (!notPublished.some((n) => n.operation_id === op.id && n.field === field.field)) {
        notPublished.push({ operation_id: op.id, field: field.field });
      }
      out.push({
        operation_id: op.id,
        where: `${lacking.at}${field.field}`,
        kind: 'missing_field',
        message: `${screenName(screen)}: ${field.label} not published; the screen says so`,
      });
    }
    return out;
  }

  function inspect(op: OperationDef, res: GetResult, query: Record<string, string>) {
    checked++;
    const { json, issue } = parseAnswer(run, op, res);
    let defects = 0;
    let unknown = 0;
    if (issue) {
      issues.push(issue);
      defects = 1;
    }
    if (json !== undefined) {
      const first = query.first !== undefined ? Number(query.first) : undefined;
      const check = checkAnswer(op, json, first);
      defects = check.issues.length;
      unknown = check.unknown.length;
      for (const i of check.issues) issues.push({ ...i, message: run.clean(i.message)! });
      unknownCount += unknown;
      for (const w of check.unknown) {
        if (unknownFields.length < MAX_UNKNOWN_LISTED) unknownFields.push({ operation_id: op.id, where: w });
      }
      for (const i of missingScreenFields(op, json)) {
        issues.push(i);
        defects++;
      }
    }
    if (defects === 0) conforming++;
    return { json, defects, unknown };
  }

  function section(): DoctorReport['conformance'] {
    const defectiveAnswers = checked - conforming;
    const unknownText = (sep: string, tail: string) =>
      unknownCount ? `${sep}${plural(unknownCount, 'unknown extra field')}${tail}` : '';
    const conformanceVerdict =
      checked === 0
        ? verdict('skipped', 'No answer to check')
        : defectiveAnswers === 0
          ? verdict(
              'ok',
              `All ${plural(checked, 'answer')} conform to the contract${unknownText(' (', ' counted, not errors)')}`,
            )
          : verdict(
              'fail',
              `${plural(issues.length, 'defect')} in ${defectiveAnswers} of ${plural(checked, 'answer')}${unknownText('; ', ' counted')}`,
            );
    return {
      verdict: conformanceVerdict,
      checked,
      conforming,
      issues,
      unknown_fields: { count: unknownCount, items: unknownFields },
      not_published: notPublished,
    };
  }

  return { inspect, notPublished, section };
}
