// What serve() says when it starts: where it listens, what it serves, and the settings that will bite later.
import { INBOX_BASE, LEGACY_VERSIONS, MODERN_VERSION } from '../protocol';
import { isProduction, readEnv } from '../runtime';
import type { ParleyServer } from '../engine';

interface BannerFacts {
  url: string;
  /** The host is a loopback address: only this machine can connect. */
  loopback: boolean;
  accessLog: boolean;
}

const MAX_TOOLS = 12;

const STORE_LABEL: Record<string, string> = {
  memory: 'memory (this process only)',
  sqlite: 'SQLite (processes on this machine)',
  redis: 'Redis',
  'redis-http': 'Redis over HTTP',
};

/**
 * The banner's lines and the warnings, one log entry each, from the built server. (A log entry is one line: the logger
 * escapes line breaks, so the banner cannot be one entry of several lines.)
 */
export function startupBanner(server: ParleyServer, facts: BannerFacts): { banner: string[]; warnings: string[] } {
  const { config } = server;
  const store = server.elicitationStore;
  const names = [...server.tools.keys()];
  const tools =
    names.length === 0
      ? 'none'
      : `${names.slice(0, MAX_TOOLS).join(', ')}${names.length > MAX_TOOLS ? `, … (${names.length} in all)` : ''}`;
  const storeLabel = store ? (STORE_LABEL[store.info.type] ?? store.info.type) : "stateless: no store, so older clients can't be asked";
  const elicitation = config.elicitation.enabled
    ? `on; ${MODERN_VERSION} asks in ${config.elicitation.requestState} requestState (${server.ephemeralStateKey ? 'a per-process key' : 'VAULT_SECRET'}), older clients' questions wait in ${storeLabel}`
    : 'off';
  const rows: [string, string][] = [
    ['protocol', `${MODERN_VERSION} (stateless), ${LEGACY_VERSIONS.join(', ')} (sessions)`],
    ['tools', tools],
    ['elicitation', elicitation],
  ];
  if (server.questions) rows.push(['inbox', new URL(`${INBOX_BASE}/inbox`, facts.url).href]);
  if (facts.accessLog) rows.push(['access log', 'on: a line per request']);
  const banner = [`${server.info.name} ${server.info.version} serving ${facts.url}`, ...rows.map(([k, v]) => `  ${k.padEnd(13)}${v}`)];
  return { banner, warnings: warningsOf(server, facts) };
}

function warningsOf(server: ParleyServer, facts: BannerFacts): string[] {
  const warnings: string[] = [];
  const store = server.elicitationStore;
  const production = isProduction(server.env);
  const shared = store?.backend.distributed === true;
  if (server.config.elicitation.enabled && server.ephemeralStateKey && shared && !server.ephemeralKeyWarned)
    warnings.push(
      `No VAULT_SECRET (or JWT_SECRET): requestState is signed with this process's own key, yet the ${STORE_LABEL[store!.info.type] ?? store!.info.type} store says more instances share this server. Set the same VAULT_SECRET on every instance, or rounds that reach another instance are refused.`,
    );
  if (production && !readEnv('MCP_SESSION_SECRET', server.env))
    warnings.push(
      'NODE_ENV=production and no MCP_SESSION_SECRET: clients before 2026-07-28 get 503 on initialize. Set it, the same on every instance.',
    );
  if (shared && !store!.info.encrypted && !production)
    warnings.push(
      `Older clients' questions and answers are kept unencrypted in ${STORE_LABEL[store!.info.type] ?? store!.info.type}: set MCP_ELICITATION_SECRET (or MCP_SESSION_SECRET) to encrypt them.`,
    );
  if (!facts.loopback) {
    if (!server.verifyBearer)
      warnings.push(
        `Listening beyond this machine (${facts.url}) with no auth: every caller is anonymous. Set auth: { issuer } (its keys found from its metadata), { jwksUrl }, { verify } (opaque tokens, API keys, introspection from parley-mcp/introspection) or { secret } (HS256), or serve behind a proxy that checks callers (Parley's docs/auth.md).`,
      );
    if (server.config.http.allowedHosts === undefined)
      warnings.push(
        'The Host header is not checked (http.allowedHosts is not set): list the names this server is reached by, against DNS rebinding.',
      );
  }
  return warnings;
}
