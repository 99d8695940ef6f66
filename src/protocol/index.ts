// The protocol subsystem's door: revisions, JSON-RPC parsing, wire errors and reserved names.
export { ErrorCode, LimitError, McpWireError, headerMismatch, invalidParams, methodNotFound } from './errors';
export type { JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from './jsonrpc';
export { checkMessage, errorResponse, isNotification, isObject, isRequest, isResponse, parseMessage } from './jsonrpc';
export { HEADER, META } from './meta';
export { ownValue, parseJson, withoutProtoKeys } from './json';
export { LEGACY_VERSIONS, MODERN_VERSION, SUPPORTED_VERSIONS, isLegacyVersion } from './revisions';
