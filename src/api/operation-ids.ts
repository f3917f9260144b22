/**
 * Every operation the browser can call by id: the API's (through the console's `/api` proxy) and the console
 * server's own (`/console/*`). Types only, so importing it loads no schema.
 */
import type { ConsoleOperations } from './console';
import type { Operations } from './operations';

export type AllOperations = Operations & ConsoleOperations;
export type AnyOperationId = keyof AllOperations;
