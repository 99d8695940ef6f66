// STORES=, which narrows the store contract suite to some backends: what it takes, and a clear refusal of a name it has not.
import { describe, expect, it } from 'vitest';
import { selectedStores } from './contract';

describe('STORES', () => {
  it('takes backend types separated by commas, and means every backend when unset or empty', () => {
    expect(selectedStores('memory,sqlite')).toEqual(new Set(['memory', 'sqlite']));
    expect(selectedStores(' redis-http , redis-cluster ')).toEqual(new Set(['redis-http', 'redis-cluster']));
    expect(selectedStores(undefined)).toBeUndefined();
    expect(selectedStores(' ')).toBeUndefined();
  });

  it('refuses a name that is not a backend, saying which names it takes', () => {
    expect(() => selectedStores('memory,sqllite')).toThrow(
      "STORES: no store named 'sqllite'; write some of memory, sqlite, redis, redis-cluster, redis-http, durable-objects, separated by commas",
    );
    expect(() => selectedStores('memory,')).toThrow("STORES: no store named ''");
  });
});
