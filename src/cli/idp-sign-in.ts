// parley idp's sign-in page: pick one of the named people (no password: a development provider), then consent is
// given for what the client asked, so a client's step-up is one more visit to the same page.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Who can sign in, picked on the page. */
export const PEOPLE = ['alice', 'bob'];

interface Interaction {
  uid: string;
  prompt: {
    name: string;
    details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  };
  params: Record<string, unknown>;
  session?: { accountId?: string };
  grantId?: string;
}

interface Grant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}

/** The part of oidc-provider's Provider the sign-in uses. */
export interface InteractionProvider {
  interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<Interaction>;
  interactionFinished(request: IncomingMessage, response: ServerResponse, result: Record<string, unknown>, options?: object): Promise<void>;
  Grant: { new (init: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(uid: string, client: string): string {
  const buttons = PEOPLE.map(
    (name) =>
      `<form method="post" action="/interaction/${escape(uid)}/login"><input type="hidden" name="login" value="${name}"><button>Sign in as ${name}</button></form>`,
  ).join('\n');
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Sign in · parley idp</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem;margin:.25rem 0;width:100%}</style>
<h1>Sign in</h1>
<p><b>${escape(client)}</b> asks who you are. This provider is for development only: pick a person, no password.</p>
${buttons}
</html>`;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return new URLSearchParams(body);
}

/** Grants what the client asked for (scopes of openid and of each resource), as a person clicking "allow" would. */
async function consent(provider: InteractionProvider, interaction: Interaction): Promise<Record<string, unknown>> {
  const { details } = interaction.prompt;
  const grant = interaction.grantId
    ? await provider.Grant.find(interaction.grantId)
    : new provider.Grant({ accountId: interaction.session!.accountId!, clientId: String(interaction.params.client_id) });
  if (!grant) throw new Error('the grant is gone');
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
  const grantId = await grant.save();
  return { consent: interaction.grantId ? {} : { grantId } };
}

/** GET /interaction/:uid shows the page (or consents); POST /interaction/:uid/login signs the picked person in. */
export function interactionRoutes(provider: InteractionProvider) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    try {
      const interaction = await provider.interactionDetails(request, response);
      if (request.method === 'POST' && request.url?.endsWith('/login')) {
        const login = (await readForm(request)).get('login') ?? '';
        if (!PEOPLE.includes(login)) return void response.writeHead(400).end(`Unknown person: pick one of ${PEOPLE.join(', ')}`);
        return await provider.interactionFinished(request, response, { login: { accountId: login } }, { mergeWithLastSubmission: false });
      }
      if (interaction.prompt.name === 'consent')
        return await provider.interactionFinished(request, response, await consent(provider, interaction), {
          mergeWithLastSubmission: true,
        });
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(page(interaction.uid, String(interaction.params.client_id)));
    } catch (error) {
      if (!response.headersSent) response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`This sign-in cannot go on (${(error as Error).message}): start again from the client.`);
    }
  };
}
