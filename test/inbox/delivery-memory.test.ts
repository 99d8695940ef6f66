import { memoryStore } from '../../src/stores';
import { deliverySuite } from './delivery-suite';

deliverySuite('memory', async () => memoryStore());
deliverySuite('memory', async () => memoryStore(), 'a-secret-for-tests');
