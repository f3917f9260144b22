/** The contract shared by browser, console server and sandbox. No fetch, React or Node APIs here. */
export * from './conventions';
export * from './page';
export * from './problem';
export * from './permissions';
export * from './operations';
