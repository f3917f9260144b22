/**
 * Recognizes the console server's 502 for an answer the API gave but the console could not read (a body that
 * is not JSON, or that does not match the contract): the API is reachable and answering, so this is neither
 * an outage to wait out nor something a retry changes.
 */
import type { ProblemDetail } from '@/api/problem';

/** The problem type such a 502 carries once the console server names it (src/server/console/upstream-client.ts). */
export const UNREADABLE_ANSWER_TYPE = 'urn:agent-platform-console:unreadable-upstream-answer';

export function isUnreadableAnswer(status: number, body: Pick<ProblemDetail, 'type' | 'detail'>): boolean {
  if (status !== 502) return false;
  // Until then, the server's wording: "The Agent Platform API answered <operation> with a body that does not
  // match the contract (…)" / "… that is not JSON" (and the browser client's own "… with a body that is not JSON").
  return body.type === UNREADABLE_ANSWER_TYPE || !!body.detail?.includes(' with a body that ');
}
