// ResourceContext: the base class of resources and resource templates. execute() returns what the URI holds.
import type { ScopeRequirement } from './tool-types';
import type { Completer } from './prompt-context';
import { RequestContext } from './request-context';
import type { Icon } from './tool-types';
import type { UriTemplateParams } from './uri-template';

export interface CacheHint {
  ttlMs: number;
  scope: 'public' | 'private';
}

interface ResourceCommon {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Record<string, unknown>;
  icons?: Icon[];
  /** Listed as written, e.g. an MCP App's `{ ui: { csp: … } }`. */
  _meta?: Record<string, unknown>;
  /** How long clients may cache what resources/read returns; default the server's `cache`. */
  cache?: CacheHint;
  /** The OAuth scopes a caller needs to read it (403 insufficient_scope without them); never shown in the lists. */
  scopes?: ScopeRequirement;
}

export interface ResourceOptions extends ResourceCommon {
  uri: string;
  size?: number;
}

export interface ResourceTemplateOptions extends ResourceCommon {
  /** An RFC 6570 template (every operator, prefixes, explode), e.g. `notes://{folder}/{id}` or `users://{id}{?fields}`. */
  uriTemplate: string;
  /** Suggestions for completion/complete, per template variable. */
  complete?: Record<string, Completer>;
}

export type ResourceContent =
  | { uri?: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
  | { uri?: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };

/**
 * What execute() may return: text, bytes, one content, several, or a whole ReadResourceResult.
 * Nothing (undefined, null or no contents) means the URI names no resource: the client gets -32602.
 */
export type ResourceReturn = string | Uint8Array | ResourceContent | ResourceContent[] | { contents: ResourceContent[] } | undefined | null;

/**
 * The base class of resources and templates: execute() gets the URI and the template's variables.
 * @example class Ticket extends ResourceContext<{ id: string }> { execute(uri: string, { id }: { id: string }) { return JSON.stringify({ id }); } }
 */
export abstract class ResourceContext<Params extends UriTemplateParams = Record<string, string>> extends RequestContext {
  abstract execute(uri: string, params: Params): ResourceReturn | Promise<ResourceReturn>;
}
