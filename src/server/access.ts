/**
 * Access control (the parts live in `./access/`): sign-in page, cookies, sessions, one-time links and the
 * access token, single sign-on with OpenID Connect. This module is the entry the server and tests import.
 */
export * from './access/index';
