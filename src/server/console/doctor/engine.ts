/**
 * The doctor: checks one upstream with one credential, section by section, and answers a report
 * (`DoctorReport`, `src/api/console/doctor.ts`). Used by `npm run doctor` and by the console's
 * `/console/doctor` endpoints. Each section has its own file; `runDoctor` runs them in order over one shared run
 * (`run.ts`) and weighs their verdicts into one.
 *
 * 1. Reach (`reach.ts`): the base URL resolves and answers over HTTPS (plain HTTP only on loopback), with the round-trip
 *    time of a request without the credential; TLS problems named plainly.
 * 2. Identity (`identity.ts`): `GET /v3/self` when the upstream has it, the `cog_` form of the credential, and a 401 explained
 *    (missing, malformed, unknown, expired, revoked, refused by the IP access list).
 * 3. Operations (`operations.ts`, ids from `ids.ts`): every read operation of the contract's table (GET; whatever the table holds), called once with
 *    the smallest request (`first=1`), path ids taken from earlier answers (the first organization, the first
 *    session of it…). Never a write: the HTTP client can only send GET. An operation with `alternates` is tried
 *    at its paths in order (src/api/path-choice.ts, with the run's own memory), and the report says which path
 *    the upstream serves. Which screens will work follows (`CONSOLE_SCREENS`).
 * 4. Conformance (`conformance-section.ts`): every answer against its response schema and the paging rules (see `conformance.ts`), and the
 *    fields a screen relies on though the contract leaves them optional (`SCREEN_FIELDS`): one that is absent is
 *    marked missing, naming the screen.
 * 5. Rate limiting (`rate-limit.ts`): at most 5 requests within any second on every upstream, loopback included (`pace.ts`), every
 *    429 waited out (`Retry-After`), what was seen recorded.
 *
 * The credential appears nowhere in the report: every text from the upstream goes through the redactor, and
 * the whole report once more at the end.
 */
import { screenChecks, type DoctorReport, type DoctorVerdict } from '../../../api/console/doctor';
import { conformanceTally } from './conformance-section';
import { checkSelf, emptyIdentity, explainUnauthorized, identityVerdict } from './identity';
import { countOutcomes, operationsVerdict, operationsWalk, type OperationCounts } from './operations';
import { pacedSender, rateLimitSection } from './rate-limit';
import { checkReach } from './reach';
import { plural, startRun, verdict, type DoctorOptions, type DoctorRun } from './run';

export { explainUnauthorized } from './identity';
export type { DoctorOptions } from './run';

export async function runDoctor(opts: DoctorOptions): Promise<DoctorReport> {
  const run = startRun(opts);
  const { reach, base } = await checkReach(run);
  const reachable = !reach.problem;
  const identity = emptyIdentity(run.credentialForm);
  const tally = conformanceTally(run);
  const sender = pacedSender(run, base);
  const walk = operationsWalk(run, sender, tally);
  if (!reachable) run.skipAll('not tried: the upstream cannot be reached');
  else if (run.credentialForm === 'missing') {
    run.unauthorized = explainUnauthorized('', 'missing');
    run.skipAll('not tried: no credential');
  } else {
    await checkSelf(run, walk.call, identity);
    if (!run.unauthorized) await walk.walk();
    if (run.unauthorized) run.skipAll('not tried: the credential was refused (401)');
  }
  sender.close();

  const list = run.table.map((op) => run.items.get(op.id)!).filter(Boolean);
  const counts = countOutcomes(list);
  identity.unauthorized = run.unauthorized;
  identity.verdict = identityVerdict(run, identity, reachable, counts.allowed);
  const operations = {
    verdict: operationsVerdict(run, reachable, list, counts),
    counts,
    items: list,
    paths: walk.pathFindings,
  };
  const conformance = tally.section();
  const rateLimit = rateLimitSection(run);
  const overall = overallVerdict(run, { reach, identity, operations, conformance, rate_limit: rateLimit }, counts);

  const report: DoctorReport = {
    version: 1,
    started_at: Math.floor(run.startedMs / 1000),
    duration_ms: Date.now() - run.startedMs,
    target: { base_url: opts.baseUrl, mode: opts.mode },
    credential_works: credentialWorks(run, reachable, counts),
    verdict: overall,
    reach,
    identity,
    operations,
    screens: screenChecks(list, run.screens, tally.notPublished),
    conformance,
    rate_limit: rateLimit,
  };
  run.progress(null);
  // Last guard: whatever the upstream echoed, the credential leaves in no encoding.
  return run.redactor.redactValue(JSON.parse(run.redactor.redact(JSON.stringify(report))) as DoctorReport);
}

function credentialWorks(run: DoctorRun, reachable: boolean, counts: OperationCounts): boolean {
  return reachable && !run.unauthorized && run.credentialForm !== 'missing' && counts.allowed > 0;
}

type Sections = Pick<DoctorReport, 'reach' | 'identity' | 'operations' | 'conformance' | 'rate_limit'>;

/** The report's one line: whether the credential works, and with which findings. */
function overallVerdict(run: DoctorRun, s: Sections, counts: OperationCounts): DoctorVerdict {
  const { unauthorized } = run;
  if (s.reach.problem) return verdict('fail', `The upstream cannot be reached: ${s.reach.problem}`);
  if (run.credentialForm === 'missing') return verdict('fail', 'No credential is configured (AGENT_PLATFORM_API_KEY)');
  if (unauthorized) return verdict('fail', `The credential does not work: ${unauthorized.explanation}`);
  if (!credentialWorks(run, true, counts)) {
    return verdict('fail', 'The credential is accepted but no read operation is allowed');
  }
  const defectiveAnswers = s.conformance.checked - s.conformance.conforming;
  const responses429 = s.rate_limit.responses_429;
  const withFindings =
    [s.operations.verdict, s.conformance.verdict].some((v) => v.level === 'fail') ||
    counts.refused > 0 ||
    [s.reach.verdict, s.identity.verdict, s.rate_limit.verdict].some((v) => v.level === 'warn');
  if (!withFindings) {
    return verdict('ok', 'The credential works: every read operation allowed and every answer conforming');
  }
  const findings = [
    counts.refused ? `${counts.refused} refused` : null,
    counts.not_present ? `${counts.not_present} not present` : null,
    counts.failed ? `${counts.failed} failed` : null,
    defectiveAnswers ? `${plural(defectiveAnswers, 'non-conforming answer')}` : null,
    responses429 ? `${responses429} × 429` : null,
  ].filter(Boolean);
  return verdict('warn', `The credential works, with findings: ${findings.join(', ') || 'see the sections'}`);
}
