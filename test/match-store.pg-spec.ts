import { describeStoreSuite } from './store/store-suite';
import { pgFactory } from './store/helpers';

describeStoreSuite('PostgreSQL', pgFactory);
