/** Audit logs operations. */
import { defineOperations } from './define';

export const auditLogOperations = defineOperations({});
