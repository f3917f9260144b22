// as: src/features/alpha/panel.ts
// expect: 3
// Another feature through import(): by alias, relatively, and in a template literal.
export const load = () => import('@/features/members/api');
export const loadToo = () => import('../members/members-screen');
export const loadThree = () => import(`../members/api`);
