// A cycle through a dynamic import: a imports b, b loads a on demand.
import { b } from './b';

export const a = () => b;
