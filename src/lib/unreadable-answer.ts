/**
 * Recognizes the console server's 502 for an answer the API gave but the console could not read (a body that
 * is not JSON, or that does not match the contract): the API is reachable and answering, so this is neither
 * an outage to wait out nor something a retry changes.
 */
import { UNREADABLE_ANSWER_TYPE, type ProblemDetail } from '@/api/problem';

export { UNREADABLE_ANSWER_TYPE };

export function isUnreadableAnswer(status: number, body: Pick<ProblemDetail, 'type' | 'detail'>): boolean {
  if (status !== 502) return false;
  // The console server names the type (src/server/console/upstream-client.ts); the wording also covers the
  // browser client's own "… with a body that is not JSON" and servers of an earlier version.
  return body.type === UNREADABLE_ANSWER_TYPE || !!body.detail?.includes(' with a body that ');
}
