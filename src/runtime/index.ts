// The runtime subsystem's door: environment, runtime detection and logging.
export { isProduction, readEnv } from './env';
export type { EnvSource } from './env';
export { detectRuntime, isEdgeRuntime } from './detect';
export type { RuntimeKind } from './detect';
export { createLogger, formatRecord } from './logger';
export type { LogLevel, Logger } from './logger';
export { atTurnEnd, useTurnEnd } from './turn-end';
