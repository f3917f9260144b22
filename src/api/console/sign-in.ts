/**
 * The console server's own 401, as the contract names it for both sides: the server writes it when a request
 * has no sign-in session, the browser's client reads it to go to the sign-in page (an upstream 401 is a
 * credential problem instead). No dependencies: the first screen loads it.
 */

/** The `type` of the problem that means "sign in to the console". */
export const SIGN_IN_REQUIRED_TYPE = 'urn:agent-platform-console:sign-in-required';
