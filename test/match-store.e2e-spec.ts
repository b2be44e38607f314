import { describeStoreSuite } from './store/store-suite';
import { pgliteFactory } from './store/helpers';

describeStoreSuite('PGlite', pgliteFactory);
