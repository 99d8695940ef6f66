// The protocol subsystem's door: revisions, JSON-RPC parsing, wire errors and reserved names.
export { ErrorCode, WIRE_ERRORS, type WireErrorKey } from './error-table';
export {
  InsufficientScopeError,
  LimitError,
  McpWireError,
  RefusedMessage,
  RetryLaterError,
  headerMismatch,
  inOkAnswer,
  invalidParams,
  methodNotFound,
  wireError,
} from './errors';
export type { JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from './jsonrpc';
export { checkMessage, errorResponse, isNotification, isObject, isRequest, isResponse, parseMessage } from './jsonrpc';
export { HEADER, INBOX_BASE, META, serverInfoMeta } from './meta';
export { jsonString, MAX_JSON_DEPTH, ownValue, parseJson, tooDeep, withoutProtoKeys } from './json';
export { LEGACY_VERSIONS, MODERN_VERSION, SUPPORTED_VERSIONS, isLegacyMessage, isLegacyVersion } from './revisions';
export { decodeUtf8, readBody } from './body';
export type { BodyReader } from './body';
export {
  ElicitationDisabledError,
  ElicitationNotSupportedError,
  ElicitationTimeoutError,
  InvalidInputError,
  InvalidOutputError,
  PublicMcpError,
  StoreUnavailableError,
} from './framework-errors';
export { checkHeaders, decodeHeader, readEnvelope } from './modern-checks';
export {
  fetchResponder,
  INTERNAL_ERROR,
  methodNotAllowed,
  problemBody,
  Responder,
  SSE_HEADERS,
  STORE_RETRY_AFTER_S,
  toWireError,
  type PlainResponseMaker,
  type StreamResponseMaker,
  type StreamSource,
} from './respond';
export { type RouteContext, Router } from './router';
export { KEEPALIVE, KEEPALIVE_MS, sseComment, sseFrame, sseMessage } from './sse';
export {
  EDGE_REFUSAL,
  InboxPendingError,
  InvalidQuestionStoreError,
  QuestionAlreadyAnsweredError,
  QuestionPendingError,
  QuestionSupersededError,
  QuestionUnansweredError,
  type InboxReason,
} from './question-errors';
