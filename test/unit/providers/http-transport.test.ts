/**
 * The model client's transport (node:http under the SDK's `fetch`): what a request sends, how a
 * streamed answer arrives, connection reuse, and failures as the global fetch reports them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../../src/providers/http-transport.js';
import { LightHeaders } from '../../../src/providers/web-types.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

const servers: http.Server[] = [];

async function serve(handler: Handler): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handler(req, res, body));
  });
  server.on('connection', () => connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    connections: () => connections,
  };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('HttpTransport', () => {
  it('sends the method, headers and body, and answers with status, headers and text', async () => {
    const { url } = await serve((req, res, body) => {
      res.writeHead(201, {
        'content-type': 'application/json',
        'x-seen': `${req.method} ${req.headers.authorization} ${req.headers['content-length']}`,
      });
      res.end(JSON.stringify({ echo: body }));
    });
    const response = await new HttpTransport().fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: new Headers({ authorization: 'Bearer k', 'content-type': 'application/json' }),
      body: '{"a":"é"}',
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${url}/chat/completions`);
    expect(response.headers.get('x-seen')).toBe('POST Bearer k 10');
    expect(await response.json()).toEqual({ echo: '{"a":"é"}' });
  });

  it('hands each streamed chunk over as it arrives, to the inspector first', async () => {
    let release: () => void = () => undefined;
    const second = new Promise<void>((resolve) => (release = resolve));
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      void second.then(() => res.end('data: two\n\n'));
    });
    const seen: string[] = [];
    const response = await new HttpTransport().fetch(url, { method: 'POST', body: '{}' }, (chunk) =>
      seen.push(Buffer.from(chunk).toString()),
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    // The first event is readable while the server still holds the second back: not buffered.
    expect(Buffer.from((await reader.read()).value as Uint8Array).toString()).toBe('data: one\n\n');
    release();
    expect(Buffer.from((await reader.read()).value as Uint8Array).toString()).toBe('data: two\n\n');
    expect((await reader.read()).done).toBe(true);
    expect(seen).toEqual(['data: one\n\n', 'data: two\n\n']);
  });

  it('an inspector that throws ends the body with its error', async () => {
    const { url } = await serve((_req, res) => res.end('<html>portal</html>'));
    const response = await new HttpTransport().fetch(url, {}, () => {
      throw new Error('not a stream');
    });
    await expect(response.text()).rejects.toThrow('not a stream');
  });

  it('reuses one connection for consecutive requests', async () => {
    const server = await serve((_req, res) => res.end('ok'));
    const transport = new HttpTransport();
    for (let i = 0; i < 3; i++)
      expect(await (await transport.fetch(server.url, { method: 'POST', body: 'x' })).text()).toBe('ok');
    expect(server.connections()).toBe(1);
  });

  it('reports an unreachable server as fetch does: TypeError with the socket error as cause', async () => {
    const { url } = await serve(() => undefined);
    servers[0]?.close();
    await new Promise((resolve) => servers[0]?.once('close', resolve));
    const failure = await new HttpTransport()
      .fetch(url, { method: 'POST', body: '{}' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect(((failure as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('an abort before the answer rejects with the reason; during the body it ends the body and the connection', async () => {
    const { url } = await serve((req, res) => {
      if (req.url?.endsWith('/slow')) return; // never answers
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
    });
    const transport = new HttpTransport();
    const early = new AbortController();
    const pending = transport.fetch(`${url}/slow`, { method: 'POST', body: '{}', signal: early.signal });
    early.abort(new Error('stopped by the person'));
    await expect(pending).rejects.toThrow('stopped by the person');

    const late = new AbortController();
    const response = await transport.fetch(url, { method: 'POST', body: '{}', signal: late.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    late.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a body it does not send itself goes through the global fetch, still inspected chunk by chunk', async () => {
    const { url } = await serve((_req, res, body) => res.end(`got ${body}`));
    const seen: string[] = [];
    const response = await new HttpTransport().fetch(
      url,
      { method: 'POST', body: new URLSearchParams({ a: '1' }) },
      (chunk) => seen.push(Buffer.from(chunk).toString()),
    );
    expect(await response.text()).toBe('got a=1');
    expect(seen).toEqual(['got a=1']);
  });

  it('sends light headers (what the bundled SDK hands over) on its own path and the global fetch’s', async () => {
    const { url } = await serve((req, res) => res.end(`${req.headers.authorization} ${req.headers['x-a']}`));
    const headers = () =>
      new LightHeaders([
        ['Authorization', 'Bearer k'],
        ['X-A', '1'],
        ['x-a', '2'],
      ]);
    const transport = new HttpTransport();
    const own = await transport.fetch(url, {
      method: 'POST',
      body: '{}',
      headers: headers() as unknown as RequestInit['headers'],
    });
    const global = await transport.fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ a: '1' }),
      headers: headers() as unknown as RequestInit['headers'],
    });
    expect([await own.text(), await global.text()]).toEqual(['Bearer k 1, 2', 'Bearer k 1, 2']);
  });

  it('gives a 204 a null body', async () => {
    const { url } = await serve((_req, res) => res.writeHead(204).end());
    const response = await new HttpTransport().fetch(url, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });
});
