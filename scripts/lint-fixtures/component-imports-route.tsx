// as: src/components/widget.tsx
// expect: 1
// A shared component importing a route.
import { Route } from '../routes/index';

export const used = Route;
