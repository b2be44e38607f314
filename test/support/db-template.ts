// One migrated PGlite template for every suite: the one the store suites use.
export { pgliteTemplate } from './pglite-template';
