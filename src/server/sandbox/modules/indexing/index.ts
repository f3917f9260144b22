/** Repository indexing in the sandbox. */
import type { SandboxModule } from '../../context';

export const indexingModule: SandboxModule = {
  name: 'indexing',
  migrations: [],
  handlers: {},
};
