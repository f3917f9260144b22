/** Knowledge notes in the sandbox. */
import type { SandboxModule } from '../../context';

export const knowledgeModule: SandboxModule = {
  name: 'knowledge',
  migrations: [],
  handlers: {},
};
