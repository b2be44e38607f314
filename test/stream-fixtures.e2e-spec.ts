import { describeStreamFixtures } from './store/stream-fixtures-suite';
import { pgliteFactory } from './store/helpers';

describeStreamFixtures('PGlite', pgliteFactory);
