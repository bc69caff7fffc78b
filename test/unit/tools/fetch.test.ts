import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchTool, FETCH_TIMEOUT_MS } from '../../../src/tools/builtin/fetch.js';
import { ToolError } from '../../../src/tools/types.js';
import { makeContext, runText } from './helpers.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const PAGE = `<!doctype html><html><head><title>T</title><style>p { color: red }</style>
<script>window.evil = true;</script></head><body><h1>Welcome Home</h1>
<p>Read <a href="/docs/secret-href">the manual</a> now.<img src="/logo.png" alt="logo-alt"></p></body></html>`;

describe('fetch', () => {
  let server: Server;
  let base: string;
  const routes = new Map<string, Handler>();
  /** Resolvers for requests that hang until the test aborts them. */
  let hangingArrived: () => void = () => {};

  beforeAll(async () => {
    routes.set('/page', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    });
    routes.set('/redirect', (_req, res) => {
      res.writeHead(302, { location: '/page' });
      res.end();
    });
    routes.set('/missing', (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such page here');
    });
    routes.set('/image', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(1234, 7));
    });
    routes.set('/stream-binary', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' });
      res.write(Buffer.alloc(100, 1));
      res.end(Buffer.alloc(50, 2));
    });
    routes.set('/long', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('L'.repeat(5000));
    });
    routes.set('/json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    routes.set('/latin1', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
      res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    });
    routes.set('/hang', () => {
      hangingArrived();
    });
    server = createServer((req, res) => {
      const handler = routes.get(req.url ?? '');
      if (handler) return handler(req, res);
      res.writeHead(500);
      res.end('unexpected route');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  // The test server is on loopback, which fetch refuses unless allowed.
  const fetchTool = createFetchTool({ allowHosts: ['127.0.0.1'] });
  const ctx = () => makeContext('/nonexistent-root').ctx;

  it('converts HTML to text: link text kept, hrefs, images and scripts dropped', async () => {
    const out = await runText(fetchTool, { url: `${base}/page` }, ctx());
    const [first, ...rest] = out.split('\n');
    expect(first).toBe(`${base}/page (HTTP 200)`);
    const body = rest.join('\n');
    expect(body).toContain('Welcome Home');
    expect(body).toContain('Read the manual now.');
    for (const absent of ['secret-href', 'logo', 'evil', 'color', '<p>']) expect(body).not.toContain(absent);
  });

  it('follows redirects and reports the final URL', async () => {
    const out = await runText(fetchTool, { url: `${base}/redirect` }, ctx());
    expect(out.split('\n')[0]).toBe(`${base}/page (HTTP 200)`);
    expect(out).toContain('Welcome Home');
  });

  it('returns the body of an HTTP error with its status, not as an error', async () => {
    expect(await runText(fetchTool, { url: `${base}/missing` }, ctx())).toBe(
      `${base}/missing (HTTP 404)\nno such page here`,
    );
  });

  it('passes other text types through, decoding the declared charset', async () => {
    expect(await runText(fetchTool, { url: `${base}/json` }, ctx())).toBe(
      `${base}/json (HTTP 200)\n{"ok":true}`,
    );
    expect(await runText(fetchTool, { url: `${base}/latin1` }, ctx())).toBe(
      `${base}/latin1 (HTTP 200)\ncafé`,
    );
  });

  it('cuts long text to 2000 chars with the truncation note', async () => {
    expect(await runText(fetchTool, { url: `${base}/long` }, ctx())).toBe(
      `${base}/long (HTTP 200)\n${'L'.repeat(2000)}\n(output truncated, 5000 chars in total)`,
    );
  });

  it('describes non-text responses instead of returning them', async () => {
    await expect(fetchTool.run({ url: `${base}/image` }, ctx())).rejects.toThrow(
      new ToolError(`fetch: ${base}/image returned image/png (1234 bytes), not text`),
    );
    await expect(fetchTool.run({ url: `${base}/stream-binary` }, ctx())).rejects.toThrow(
      new ToolError(`fetch: ${base}/stream-binary returned application/octet-stream (150 bytes), not text`),
    );
  });

  it('reports an unreachable server as a network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((resolve) => closed.close(resolve));
    await expect(fetchTool.run({ url }, ctx())).rejects.toThrow(
      new RegExp(`^fetch: cannot reach ${url.replaceAll('.', '\\.')}: .*ECONNREFUSED`),
    );
  });

  it('refuses other schemes and invalid URLs', async () => {
    for (const url of ['ftp://example.com/file', 'file:///etc/passwd', 'javascript:alert(1)']) {
      await expect(fetchTool.run({ url }, ctx())).rejects.toThrow(
        'fetch: only http and https URLs are supported',
      );
    }
    await expect(fetchTool.run({ url: 'not a url' }, ctx())).rejects.toThrow(
      'fetch: not a valid URL: not a url',
    );
    await expect(fetchTool.run({}, ctx())).rejects.toThrow('fetch: "url" must be a string');
  });

  it('gives up after its timeout', async () => {
    const quick = createFetchTool({ timeoutMs: 300, allowHosts: ['127.0.0.1'] });
    await expect(quick.run({ url: `${base}/hang` }, ctx())).rejects.toThrow(
      `fetch: cannot reach ${base}/hang: timed out after 0.3 s`,
    );
  });

  it('stops when the signal aborts', async () => {
    const arrived = new Promise<void>((resolve) => {
      hangingArrived = resolve;
    });
    const controller = new AbortController();
    const running = fetchTool.run(
      { url: `${base}/hang` },
      makeContext('/x', { signal: controller.signal }).ctx,
    );
    await arrived;
    controller.abort();
    await expect(running).rejects.toThrow(new ToolError('fetch: cancelled'));
  });

  it('describes the approval and has a 15 s default', async () => {
    expect(await fetchTool.describeApproval?.({ url: 'https://example.com' }, ctx())).toEqual({
      title: 'About to fetch a URL',
      detail: 'https://example.com',
      kind: 'url',
    });
    expect(FETCH_TIMEOUT_MS).toBe(15_000);
  });
});
