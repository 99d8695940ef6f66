// Persistent questions' settings at startup, as app/ reads them: a sign-in setting with no inbox to sign in to is named.
import { describe, expect, it } from 'vitest';
import { createQuestionService } from '../../src/app/questions';
import { parseConfig } from '../../src/model/config';

const started = async (config: Record<string, unknown>) => {
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
  const service = await createQuestionService(parseConfig({ info: { name: 's', version: '1' }, ...config }), undefined, logger);
  return { service, warnings };
};

describe('a sign-in setting without persistent questions', () => {
  it('warns at startup, naming the setting and what to write', async () => {
    const { service, warnings } = await started({ elicitation: { enabled: true }, http: { auth: { oidc: { clientId: 'inbox' } } } });
    expect(service).toBeUndefined();
    expect(warnings).toEqual([
      expect.stringMatching(/^http\.auth\.oidc is set but unused: .*Set elicitation\.persistent, or remove http\.auth\.oidc\.$/),
    ]);
  });

  it('warns for http.auth.people too, each setting on its own line', async () => {
    const { warnings } = await started({
      elicitation: { enabled: true },
      http: { auth: { people: 'loopback-token', oidc: { clientId: 'inbox' } } },
    });
    expect(warnings).toEqual([
      expect.stringMatching(/^http\.auth\.people is set but unused: .*Set elicitation\.persistent, or remove http\.auth\.people\.$/),
      expect.stringMatching(/^http\.auth\.oidc is set but unused: /),
    ]);
  });

  it('says nothing when it is not set', async () => {
    expect((await started({ elicitation: { enabled: true } })).warnings).toEqual([]);
  });
});
