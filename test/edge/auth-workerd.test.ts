// Sign-in inside workerd: the Worker serves its Protected Resource Metadata and challenges a request without a token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { mcpRequest } from '../helpers/requests';
import { type RunningWorker, startWorker } from '../helpers/workerd';

let running: RunningWorker;
beforeAll(async () => {
  const { code } = await bundleWorker('test/edge/entries/auth-worker.ts');
  running = startWorker(code);
});
afterAll(() => running.dispose());

const METADATA = 'https://desk.example.workers.dev/.well-known/oauth-protected-resource/mcp';

describe('the Worker as a resource server', () => {
  it('serves its metadata at the path-inserted and root URLs, with CORS and a preflight', async () => {
    for (const url of [METADATA, 'https://desk.example.workers.dev/.well-known/oauth-protected-resource']) {
      const response = await running.send(new Request(url));
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toMatchObject({
        resource: 'https://desk.example.workers.dev/mcp',
        authorization_servers: ['https://idp.example'],
        scopes_supported: ['tickets:read', 'tickets:write'],
      });
    }
    expect((await running.send(new Request(METADATA, { method: 'OPTIONS' }))).status).toBe(204);
  });

  it('answers a call without a token with 401 and the challenge', async () => {
    const response = await running.send(mcpRequest('tools/list', {}, { url: 'https://desk.example.workers.dev/mcp' }));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${METADATA}", scope="tickets:read"`);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});
