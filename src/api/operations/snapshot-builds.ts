/** Snapshot builds operations. */
import { defineOperations } from './define';

export const snapshotBuildOperations = defineOperations({});
