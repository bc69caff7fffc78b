/**
 * The interactive login prompter: the loopback callback already listens when the URL is shown,
 * a busy callback port falls back to paste-back with a message, and a pasted URL with the wrong
 * state is refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type AuthorizationRequest, interactivePrompter } from '../../../src/mcp/auth/prompters.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function requestFor(port: number): AuthorizationRequest {
  return {
    server: 'secure',
    authorizationUrl: new URL('https://auth.example/authorize?client_id=x'),
    redirectUrl: new URL(`http://127.0.0.1:${port}/callback`),
    expectedState: 'st8',
  };
}

/** A prompter whose output is collected, and a promise of the first time `text` appears in it. */
function prompterWithOutput() {
  const output = new PassThrough();
  const input = new PassThrough();
  let written = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  output.setEncoding('utf8').on('data', (chunk: string) => {
    written += chunk;
    for (const waiter of waiters.filter((w) => written.includes(w.text))) waiter.resolve();
  });
  const shown = (text: string) =>
    new Promise<void>((resolve) => {
      if (written.includes(text)) resolve();
      else waiters.push({ text, resolve });
    });
  return {
    prompter: interactivePrompter({ output, input, openBrowser: false }),
    input,
    shown,
    written: () => written,
  };
}

describe('interactive login prompter', () => {
  it('listens on the callback before it shows the URL, and takes the code from the browser', async () => {
    const port = await freePort();
    const { prompter, shown } = prompterWithOutput();
    const code = prompter.obtainCode(requestFor(port));
    await shown('https://auth.example/authorize');
    // The very first request after the URL appears must reach the callback.
    const page = await fetch(`http://127.0.0.1:${port}/callback?code=abc&state=st8`);
    expect(await page.text()).toContain('login finished');
    await expect(code).resolves.toEqual({ code: 'abc' });
  });

  it('says so when the callback port is busy, and paste-back still works', async () => {
    const port = await freePort();
    const squatter = createServer();
    servers.push(squatter);
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    const { prompter, input, shown, written } = prompterWithOutput();
    const code = prompter.obtainCode(requestFor(port));
    await shown(`The callback port ${port} is busy`);
    expect(written()).toContain('https://auth.example/authorize');
    input.write('not a url\n');
    await shown('That is not a URL');
    input.write(`http://127.0.0.1:${port}/callback?code=pasted&state=st8\n`);
    await expect(code).resolves.toEqual({ code: 'pasted' });
  });

  it('refuses a redirect whose state does not match', async () => {
    const port = await freePort();
    const { prompter, input, shown } = prompterWithOutput();
    const code = prompter.obtainCode(requestFor(port));
    await shown('Waiting for the browser');
    input.write(`http://127.0.0.1:${port}/callback?code=abc&state=forged\n`);
    await expect(code).rejects.toThrow(/state/i);
  });
});
