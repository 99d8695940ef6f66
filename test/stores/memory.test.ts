// The store contract against the memory backend.
import { memoryStore } from '../../src/stores';
import { describeStoreContract } from './contract';

describeStoreContract('memory', async () => memoryStore());
