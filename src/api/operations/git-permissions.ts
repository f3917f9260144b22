/** Git permissions operations. */
import { defineOperations } from './define';

export const gitPermissionOperations = defineOperations({});
