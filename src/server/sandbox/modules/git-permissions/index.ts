/** Git permissions in the sandbox. */
import type { SandboxModule } from '../../context';

export const gitPermissionsModule: SandboxModule = {
  name: 'git-permissions',
  migrations: [],
  handlers: {},
};
