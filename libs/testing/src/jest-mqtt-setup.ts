// Integration, end-to-end and fault tests: the accounts every test on the shared broker needs (mqtt-access.ts).
import { grantTestHarness } from './mqtt-access';

beforeAll(() => grantTestHarness(), 20_000);
