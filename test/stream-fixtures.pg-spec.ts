import { describeStreamFixtures } from './store/stream-fixtures-suite';
import { pgFactory } from './store/helpers';

describeStreamFixtures('PostgreSQL', pgFactory);
