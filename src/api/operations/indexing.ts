/** Repository indexing operations. */
import { defineOperations } from './define';

export const indexingOperations = defineOperations({});
