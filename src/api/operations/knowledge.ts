/** Knowledge notes operations. */
import { defineOperations } from './define';

export const knowledgeOperations = defineOperations({});
