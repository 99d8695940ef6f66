// What parley-mcp/node passes to the handlers it builds: answers written to the socket, its end of turn, node:crypto.
import type { Platform } from '../engine';
import { nodeAead } from './node-aead';
import { nodeHmac } from './node-hmac';
import { NODE_STORE_CRYPTO } from './node-store-crypto';
import { plainResponse } from './node-response';
import { streamedResponse } from './node-stream';
import { atNodeTurnEnd } from './node-turn';

/**
 * JSON answers are written to the socket as they are, with no Fetch Response built for them, all of a turn's together,
 * and event streams as their events come, with no web stream; requestState is signed and sealed, and tasks' values
 * sealed and named, with node:crypto: the same bytes as WebCrypto's, with no thread-pool round trip.
 */
export const NODE_PLATFORM: Platform = {
  respond: plainResponse,
  stream: streamedResponse,
  turnEnd: atNodeTurnEnd,
  hmac: nodeHmac,
  aead: nodeAead,
  storeCrypto: NODE_STORE_CRYPTO,
};
