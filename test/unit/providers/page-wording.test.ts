/**
 * A web page (a captive portal, a wrong base URL) answering with status 200 instead of the API:
 * each provider says so in its own words and names its own base-URL variable (the request watch
 * is shared; the wording comes from each provider's spec and request).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelSettings } from '../../../src/config/model-settings.js';
import type { ProviderKind } from '../../../src/config/provider-kinds.js';
import { createProvider } from '../../../src/providers/registry.js';

const PAGE = '<!doctype html><html><body>Sign in to the Wi-Fi</body></html>';

const CASES: Array<[ProviderKind, string]> = [
  ['openai', 'not a chat completion stream — check OPENAI_BASE_URL'],
  ['openai-responses', 'not a chat completion stream — check OPENAI_BASE_URL'],
  ['anthropic', 'not an event stream — check ANTHROPIC_BASE_URL'],
  ['gemini', 'not a chat completion stream — check GOOGLE_GEMINI_BASE_URL'],
];

/** A server that answers every request with the page, status 200, whatever the path. */
async function startPortal(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('an HTML page instead of the API', () => {
  let portal: Server | undefined;
  afterEach(async () => {
    portal?.closeAllConnections();
    await new Promise((resolve) => portal?.close(resolve) ?? resolve(undefined));
  });

  it.each(CASES)('%s names its own variable', async (provider, words) => {
    const started = await startPortal();
    portal = started.server;
    const settings: ModelSettings = {
      provider,
      keyVariable: 'TEST_KEY',
      baseURL: started.url,
      apiKey: 'test-key',
      model: 'test-model',
      contextWindow: 128_000,
      maxRetries: 0,
    };
    const pending = createProvider(settings).complete({
      messages: [{ role: 'user', text: 'hi' }],
      tools: [],
      signal: new AbortController().signal,
    });
    await expect(pending).rejects.toThrow(`answered 200 with an HTML page, ${words}`);
  });
});
