/** Sessions operations. */
import { defineOperations } from './define';

export const sessionOperations = defineOperations({});
