/** Snapshot builds in the sandbox. */
import type { SandboxModule } from '../../context';

export const snapshotBuildsModule: SandboxModule = {
  name: 'snapshot-builds',
  migrations: [],
  handlers: {},
};
