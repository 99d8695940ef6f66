// The store drivers in an edge bundle ("#store-drivers" under workerd, edge-light, worker, browser): none, so the
// bundle never pulls ioredis or better-sqlite3. The factory refuses those stores on an edge isolate before loading.
import type { StoreDrivers } from './drivers';

const unavailable = (what: string) => () => Promise.reject(new Error(`${what} is not available in this build (an edge bundle): run on Node.js`));

export const drivers: StoreDrivers = {
  redis: unavailable('Redis over TCP (ioredis)'),
  sqlite: unavailable('SQLite (better-sqlite3)'),
  questionsHome: unavailable('The default question file'),
};
