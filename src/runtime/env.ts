// Environment access without Node types: a platform's env bindings first, then process.env where it exists.
export type EnvSource = Record<string, unknown> | undefined;

export function readEnv(name: string, platformEnv?: EnvSource): string | undefined {
  const fromPlatform = platformEnv?.[name];
  if (typeof fromPlatform === 'string' && fromPlatform !== '') return fromPlatform;
  const processEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = processEnv?.[name];
  return value === '' ? undefined : value;
}

export const isProduction = (platformEnv?: EnvSource): boolean => readEnv('NODE_ENV', platformEnv) === 'production';
