// The runtime subsystem's door: environment, runtime detection, logging and the redaction every log line passes.
export { isProduction, readEnv } from './env';
export type { EnvSource } from './env';
export { isEdgeRuntime } from './detect';
export { createLogger, formatRecord, isLogLevel, redactingLogger } from './logger';
export { escapeLogText } from './log-escape';
export { createRedactor, INSPECT, inspectFields, secretsIn } from './redact';
export type { Redactor } from './redact';
export type { LogLevel, Logger } from './logger';
export { defaultTurnEnd, type TurnEnd } from './turn-end';
export type { OtelApi, RequestTrace, Telemetry, ToolTrace } from './telemetry';
export { traced } from './traced';
