/**
 * fetch against private addresses: refused in every notation unless allowed, the connection made
 * to the address that was checked, redirects re-checked hop by hop and never followed across hosts.
 * Two real local servers: `site` (what the model asked for) and `admin` (what must stay unreachable).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/permissions/redact.js';
import { createFetchTool } from '../../../src/tools/builtin/fetch.js';
import type { Resolver } from '../../../src/tools/builtin/fetch-request.js';
import { makeContext, runText } from './helpers.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Local {
  server: Server;
  port: number;
  hits: string[];
}

async function listen(routes: Map<string, Handler>): Promise<Local> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const handler = routes.get(req.url ?? '');
    if (handler) return handler(req, res);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`you reached ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

const redirect =
  (location: () => string): Handler =>
  (_req, res) => {
    res.writeHead(302, { location: location() });
    res.end();
  };

const ctx = () => makeContext('/nonexistent-root').ctx;

describe('fetch: private addresses and redirects', () => {
  let site: Local;
  let admin: Local;
  const siteRoutes = new Map<string, Handler>();

  beforeAll(async () => {
    site = await listen(siteRoutes);
    admin = await listen(new Map());
    siteRoutes.set(
      '/to-admin',
      redirect(() => `http://127.0.0.1:${admin.port}/admin`),
    );
    siteRoutes.set(
      '/to-localhost',
      redirect(() => `http://localhost:${site.port}/page`),
    );
    siteRoutes.set(
      '/same-host-other-port',
      redirect(() => `http://127.0.0.1:${admin.port}/admin`),
    );
    siteRoutes.set(
      '/hop1',
      redirect(() => '/hop2'),
    );
    siteRoutes.set(
      '/hop2',
      redirect(() => `http://127.0.0.1:${site.port}/page`),
    );
    siteRoutes.set(
      '/loop',
      redirect(() => '/loop'),
    );
    siteRoutes.set(
      '/to-ftp',
      redirect(() => 'ftp://127.0.0.1/file'),
    );
    siteRoutes.set('/gzip', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.end(gzipSync('compressed hello'));
    });
    siteRoutes.set('/secret-at-cut', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${'x'.repeat(1990)}sk-live-0123456789abcdef and more`);
    });
  });

  beforeEach(() => {
    site.hits.length = 0;
    admin.hits.length = 0;
  });

  afterAll(async () => {
    for (const local of [site, admin]) {
      local.server.closeAllConnections();
      await new Promise((resolve) => local.server.close(resolve));
    }
  });

  it('refuses loopback in every notation by default, without connecting', async () => {
    const fetchTool = createFetchTool();
    const port = site.port;
    const urls = [
      `http://127.0.0.1:${port}/page`,
      `http://2130706433:${port}/page`,
      `http://0177.0.0.1:${port}/page`,
      `http://0x7f.1:${port}/page`,
      `http://127.1:${port}/page`,
      `http://[::ffff:127.0.0.1]:${port}/page`,
      `http://[::ffff:7f00:1]:${port}/page`,
      `http://[::1]:${port}/page`,
      `http://[64:ff9b::7f00:1]:${port}/page`,
      `http://localhost:${port}/page`,
      `http://LOCALHOST.:${port}/page`,
      `http://0.0.0.0:${port}/page`,
    ];
    for (const url of urls) {
      await expect(fetchTool.run({ url }, ctx()), url).rejects.toThrow(
        /^fetch: refused http:\/\/.*: .*(loopback|local name|unspecified)/,
      );
    }
    expect(site.hits).toEqual([]);
  });

  it('refuses private, link-local, CGNAT and cloud metadata addresses', async () => {
    const fetchTool = createFetchTool();
    const cases: Array<[string, string]> = [
      ['http://10.1.2.3/', 'private'],
      ['http://172.16.0.1/', 'private'],
      ['http://192.168.1.1/', 'private'],
      ['http://100.64.0.1/', 'carrier-grade NAT'],
      ['http://169.254.10.10/', 'link-local'],
      ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
      ['http://[fd00:ec2::254]/', 'cloud metadata'],
      ['http://[fc00::1]/', 'private'],
      ['http://[fe80::1]/', 'link-local'],
      ['http://224.0.0.1/', 'multicast'],
      ['http://255.255.255.255/', 'broadcast'],
      ['http://[::ffff:10.0.0.1]/', 'private'],
    ];
    for (const [url, kind] of cases) {
      await expect(fetchTool.run({ url }, ctx()), url).rejects.toThrow(`a ${kind} address;`);
    }
    await expect(fetchTool.run({ url: 'http://metadata.google.internal/' }, ctx())).rejects.toThrow(
      'fetch: refused http://metadata.google.internal/: metadata.google.internal is a local name; ' +
        'private network addresses are blocked (to allow this host, add "metadata.google.internal" to ' +
        '"fetch": {"allowHosts": [...]} in .geekagent/GeekAgent.json)',
    );
  });

  it('checks what a name resolves to, refusing if any answer is private', async () => {
    const answers: Record<string, string[]> = {
      'intranet.example': ['127.0.0.1'],
      'mixed.example': ['93.184.215.14', '10.0.0.7'],
    };
    const resolve: Resolver = async (hostname) =>
      (answers[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const fetchTool = createFetchTool({ resolve });
    await expect(fetchTool.run({ url: `http://intranet.example:${site.port}/page` }, ctx())).rejects.toThrow(
      `fetch: refused http://intranet.example:${site.port}/page: intranet.example resolves to 127.0.0.1, a loopback address;`,
    );
    await expect(fetchTool.run({ url: 'http://mixed.example/' }, ctx())).rejects.toThrow(
      'mixed.example resolves to 10.0.0.7, a private address;',
    );
    expect(site.hits).toEqual([]);
  });

  it('connects to the address it checked (resolved once, pinned), which an allowed range lets through', async () => {
    const asked: string[] = [];
    const resolve: Resolver = async (hostname) => {
      asked.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    // `pinned.example` exists nowhere but in this resolver: reaching the server proves the socket
    // connected to the answer that was checked.
    const fetchTool = createFetchTool({ resolve, allowHosts: ['127.0.0.0/8'] });
    const out = await runText(fetchTool, { url: `http://pinned.example:${site.port}/page` }, ctx());
    expect(out).toBe(`http://pinned.example:${site.port}/page (HTTP 200)\nyou reached /page`);
    expect(asked).toEqual(['pinned.example']);
  });

  it('allows exactly the listed host and port', async () => {
    const url = `http://127.0.0.1:${site.port}/page`;
    await expect(
      createFetchTool({ allowHosts: [`127.0.0.1:${admin.port}`] }).run({ url }, ctx()),
    ).rejects.toThrow(/^fetch: refused/);
    expect(await runText(createFetchTool({ allowHosts: [`127.0.0.1:${site.port}`] }), { url }, ctx())).toBe(
      `${url} (HTTP 200)\nyou reached /page`,
    );
    expect(
      await runText(
        createFetchTool({ allowHosts: ['localhost'] }),
        { url: `http://localhost:${site.port}/x` },
        ctx(),
      ),
    ).toContain('you reached /x');
  });

  it('returns a redirect from an approved host to 127.0.0.1/admin instead of following it', async () => {
    const fetchTool = createFetchTool({ allowHosts: [`localhost:${site.port}`] });
    const out = await runText(fetchTool, { url: `http://localhost:${site.port}/to-admin` }, ctx());
    expect(out).toBe(
      `http://localhost:${site.port}/to-admin (HTTP 302)\n` +
        `redirected to http://127.0.0.1:${admin.port}/admin (not followed: different host; fetch it if you trust it)`,
    );
    expect(admin.hits).toEqual([]);
  });

  it('does not follow a redirect to another host even when that host is allowed too', async () => {
    const fetchTool = createFetchTool({ allowHosts: ['127.0.0.1', 'localhost'] });
    const out = await runText(fetchTool, { url: `http://127.0.0.1:${site.port}/to-localhost` }, ctx());
    expect(out).toBe(
      `http://127.0.0.1:${site.port}/to-localhost (HTTP 302)\n` +
        `redirected to http://localhost:${site.port}/page (not followed: different host; fetch it if you trust it)`,
    );
  });

  it('re-checks every same-host hop: a redirect to a port that is not allowed is refused', async () => {
    const fetchTool = createFetchTool({ allowHosts: [`127.0.0.1:${site.port}`] });
    await expect(
      fetchTool.run({ url: `http://127.0.0.1:${site.port}/same-host-other-port` }, ctx()),
    ).rejects.toThrow(
      `fetch: refused http://127.0.0.1:${admin.port}/admin: 127.0.0.1 is a loopback address;`,
    );
    expect(admin.hits).toEqual([]);
  });

  it('follows same-host redirects up to 5 hops', async () => {
    const fetchTool = createFetchTool({ allowHosts: ['127.0.0.1'] });
    const out = await runText(fetchTool, { url: `http://127.0.0.1:${site.port}/hop1` }, ctx());
    expect(out).toBe(`http://127.0.0.1:${site.port}/page (HTTP 200)\nyou reached /page`);
    await expect(fetchTool.run({ url: `http://127.0.0.1:${site.port}/loop` }, ctx())).rejects.toThrow(
      `fetch: too many redirects (more than 5) from http://127.0.0.1:${site.port}/loop`,
    );
    expect(site.hits.filter((hit) => hit === '/loop')).toHaveLength(6);
    expect(await runText(fetchTool, { url: `http://127.0.0.1:${site.port}/to-ftp` }, ctx())).toBe(
      `http://127.0.0.1:${site.port}/to-ftp (HTTP 302)\n` +
        'redirected to ftp://127.0.0.1/file (not followed: only http and https URLs are supported)',
    );
  });

  it('decodes a gzip body', async () => {
    const fetchTool = createFetchTool({ allowHosts: ['127.0.0.1'] });
    expect(await runText(fetchTool, { url: `http://127.0.0.1:${site.port}/gzip` }, ctx())).toBe(
      `http://127.0.0.1:${site.port}/gzip (HTTP 200)\ncompressed hello`,
    );
  });

  it('redacts before cutting: a secret straddling the 2000-char cut leaves no prefix', async () => {
    const fetchTool = createFetchTool({ allowHosts: ['127.0.0.1'] });
    const redact = createRedactor({ SERVICE_API_KEY: 'sk-live-0123456789abcdef' });
    const out = await runText(
      fetchTool,
      { url: `http://127.0.0.1:${site.port}/secret-at-cut` },
      { ...ctx(), redact },
    );
    expect(out).not.toContain('sk-live');
    expect(out).toBe(
      `http://127.0.0.1:${site.port}/secret-at-cut (HTTP 200)\n${'x'.repeat(1990)}[REDACTED:SERVICE_API_KEY]\n` +
        '(output truncated, 2023 chars in total)',
    );
  });
});
