// as: src/features/alpha/sub/panel.ts
// expect: 2
// Another feature, relatively from a subfolder, statically and by re-export.
import { membersQuery } from '../../members/api';
export { memberColumns } from '../../members/columns';

export const used = membersQuery;
