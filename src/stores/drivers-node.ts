// The store drivers where TCP and files exist (package.json "#store-drivers", default condition): loaded on first use.
import type { StoreDrivers } from './drivers';

export const drivers: StoreDrivers = {
  redis: () => import('./redis'),
  sqlite: () => import('./sqlite'),
  redisHttp: () => import('./redis-http'),
  questionsHome: () => import('../questions/home-file'),
  questions: () => import('../questions/setup'),
};
