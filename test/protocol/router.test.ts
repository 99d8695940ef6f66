// The inbox's router (protocol/router.ts): a method and a path with `:name` segments, one 404 for everything else, one
// answer for a throw; paths named like Object.prototype's members are paths like any other.
import { describe, expect, it } from 'vitest';
import { Router } from '../../src/protocol';

const router = () =>
  new Router<{ who: string }>('/base', {
    notFound: () => new Response('none', { status: 404 }),
    onError: (error) => new Response(`failed: ${(error as Error).message}`, { status: 500 }),
  })
    .get('/page', (c) => new Response(`page for ${c.env?.who ?? 'nobody'}, q=${c.req.query('q') ?? '-'}, h=${c.req.header('x-h') ?? '-'}`))
    .post('/items/:id/answer', (c) => new Response(`answer ${c.req.param('id')}`))
    .get('/items/:id', (c) => new Response(`item ${c.req.param('id')}`))
    .get('/throws', () => {
      throw new Error('sync');
    })
    .get('/rejects', async () => Promise.reject(new Error('async')));

const send = async (path: string, init?: RequestInit, env?: { who: string }) => {
  const response = await router().fetch(new Request(`http://h${path}`, init), env);
  return [response.status, await response.text()] as const;
};

describe('the router', () => {
  it('answers a route by method and path, with its bindings, query, headers and decoded params', async () => {
    expect(await send('/base/page?q=a+b&q=c', { headers: { 'x-h': 'v' } }, { who: 'ann' })).toEqual([200, 'page for ann, q=a b, h=v']);
    expect(await send('/base/page')).toEqual([200, 'page for nobody, q=-, h=-']);
    expect(await send('/base/items/a%2Fb%20c/answer', { method: 'POST' })).toEqual([200, 'answer a/b c']);
    expect(await send('/base/items/7')).toEqual([200, 'item 7']);
  });

  it('answers 404 for another method, path, base, a trailing slash, an empty or malformed segment', async () => {
    for (const [path, method] of [
      ['/base/page', 'POST'],
      ['/base/page/', 'GET'],
      ['/page', 'GET'],
      ['/other/page', 'GET'],
      ['/base', 'GET'],
      ['/base/', 'GET'],
      ['/base/items//answer', 'POST'],
      ['/base/items/7/answer', 'GET'],
      ['/base/items/%E0%A4%A/answer', 'POST'],
      ['/base/page', 'OPTIONS'],
    ] as const)
      expect(await send(path, { method }), `${method} ${path}`).toEqual([404, 'none']);
  });

  it("takes a segment named like Object.prototype's members as a path: a param where a route has one, else 404", async () => {
    for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(await send(`/base/${name}`)).toEqual([404, 'none']);
      expect(await send(`/base/${name}/page`)).toEqual([404, 'none']);
      expect(await send(`/base/items/${name}`)).toEqual([200, `item ${name}`]);
      expect(await send(`/base/page?${name}=1`)).toEqual([200, 'page for nobody, q=-, h=-']);
    }
  });

  it('answers a HEAD as the GET without its body, and a throw or rejection through onError', async () => {
    const head = await router().fetch(new Request('http://h/base/items/7', { method: 'HEAD' }));
    expect([head.status, await head.text()]).toEqual([200, '']);
    expect(await send('/base/throws')).toEqual([500, 'failed: sync']);
    expect(await send('/base/rejects')).toEqual([500, 'failed: async']);
  });
});
