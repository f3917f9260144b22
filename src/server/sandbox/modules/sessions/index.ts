/** Sessions in the sandbox. */
import type { SandboxModule } from '../../context';

export const sessionsModule: SandboxModule = {
  name: 'sessions',
  migrations: [],
  handlers: {},
};
