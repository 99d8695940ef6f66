// npx tsx bench/state-crypto.ts: what sealing, opening and signing one requestState costs on node:crypto, through the
// adapters parley-mcp/node passes (adapters/node-aead.ts, node-hmac.ts), for a payload the size of the bench round's.
// A round seals once (its input_required) and opens once (the retry): the floor under its cost beside two plain calls.
import { nodeAead } from '../src/adapters/node-aead';
import { nodeHmac } from '../src/adapters/node-hmac';
import { microseconds } from './micro-time';

const key = crypto.getRandomValues(new Uint8Array(32));
const aead = nodeAead(key);
const hmac = nodeHmac(key);
const aad = 's1.k1';
// The bench round's payload: its binding (caller, method, tool, argument digest), expiry and one answer.
const payload = JSON.stringify({
  v: 1,
  caller: 'anonymous',
  method: 'tools/call',
  name: 'confirm_order',
  digest: '{"id":"A-123456"}',
  exp: Date.now() + 600_000,
  answers: { confirm: { action: 'accept', content: { confirm: true } } },
});
const iv = crypto.getRandomValues(new Uint8Array(12));
const sealed = aead.seal(iv, payload, aad) as string;
const [data, tag] = sealed.split('.') as [string, string];
const ivText = Buffer.from(iv).toString('base64url'); // the state carries its IV as text, and open() takes it so

if (aead.open(ivText, data, tag, aad) !== payload) throw new Error('the sealed payload does not open to itself');
const seal = microseconds(() => aead.seal(iv, payload, aad));
const open = microseconds(() => aead.open(ivText, data, tag, aad));
const sign = microseconds(() => hmac.sign(payload));
console.log(`payload ${payload.length} bytes, Node ${process.version}`);
console.log(`seal (AES-256-GCM)  ${seal.toFixed(2)} µs`);
console.log(`open (AES-256-GCM)  ${open.toFixed(2)} µs`);
console.log(`sign (HMAC-SHA256)  ${sign.toFixed(2)} µs (a signed round signs twice: once issuing, once checking)`);
console.log(`a sealed round's AEAD work: ${(seal + open).toFixed(2)} µs; a signed round's HMAC work: ${(2 * sign).toFixed(2)} µs`);
