/**
 * The bundle plugin that gives the openai SDK light fetch globals
 * (scripts/bundle-plugins/light-web-globals.mjs), on a stand-in package laid out as the SDK's:
 * the bundled code builds light Headers and tests FormData and ReadableStream without loading undici
 * or web streams, and a build
 * whose SDK no longer has the patterns the plugin relies on fails, naming the file.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without types.
import { lightWebGlobals } from '../../../scripts/bundle-plugins/light-web-globals.mjs';

const HEADERS_MJS = [
  'export const buildHeaders = (pairs) => { const values = new Headers(); for (const [n, v] of pairs) values.append(n, v); return values; };',
  'export const isHeaders = (headers) => headers instanceof Headers;',
].join('\n');
// openai 7's EventStream: on load it looks up the native Headers' descriptor (loads undici on 22+).
const EVENT_STREAM_MJS = [
  'export const trusted = [];',
  "for (const name of [\n    'Blob',\n    'Headers',\n]) {",
  '    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);',
  "    if (descriptor && 'value' in descriptor) trusted.push(name);",
  '}',
].join('\n');
const CLIENT_MJS = [
  "export { trusted } from './lib/EventStream.mjs';",
  "export { buildHeaders, isHeaders } from './internal/headers.mjs';",
  'export const isForm = (body) => body instanceof FormData;',
  'export const isResponse = (value) => value instanceof Response;',
  "export const member = (fetch) => ('Response' in fetch ? fetch.Response : undefined);",
  "export { isStreaming } from './internal/auth/x509-workload-identity-auth.mjs';",
  'export const isStream = (options) => Boolean(globalThis.ReadableStream && options.body instanceof globalThis.ReadableStream);',
].join('\n');
// openai 7's request signing: it tests every body against the global ReadableStream.
const X509_MJS =
  'export const isStreaming = (body) => globalThis.ReadableStream !== undefined && body instanceof globalThis.ReadableStream;';

const dirs: string[] = [];

async function sdk(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'light-web-globals-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, 'node_modules', 'openai', name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  await writeFile(path.join(dir, 'entry.mjs'), "export * from './node_modules/openai/client.mjs';\n");
  return dir;
}

const bundle = (dir: string) =>
  build({
    entryPoints: [path.join(dir, 'entry.mjs')],
    outfile: path.join(dir, 'out.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    plugins: [lightWebGlobals],
    logLevel: 'silent',
  });

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('light-web-globals', () => {
  it("makes the SDK's Headers light and its FormData/Response checks free of undici", async () => {
    const dir = await sdk({
      'client.mjs': CLIENT_MJS,
      'internal/headers.mjs': HEADERS_MJS,
      'lib/EventStream.mjs': EVENT_STREAM_MJS,
      'internal/auth/x509-workload-identity-auth.mjs': X509_MJS,
    });
    await bundle(dir);
    const script = `
      const m = await import(${JSON.stringify(path.join(dir, 'out.mjs'))});
      const headers = m.buildHeaders([['B', '1'], ['a', '2'], ['b', '3']]);
      const seen = {
        entries: [...headers],
        checks: [m.isForm({}), m.isForm('text'), m.isResponse({}), m.isHeaders({}), m.isHeaders(headers)],
        streams: [m.isStream({ body: '{}' }), m.isStream({ body: {} }), m.isStreaming('{}')],
        webStreams: process.moduleLoadList.some((name) => name.includes('webstreams')),
        member: m.member({ Response: 'own' }),
        trusted: m.trusted,
        undici: process.moduleLoadList.some((name) => name.includes('undici')),
      };
      // Real instances still pass, once they exist.
      seen.real = [m.isHeaders(new Headers()), m.isForm(new FormData()), m.isResponse(new Response(''))];
      seen.realStreams = [m.isStream({ body: new ReadableStream() }), m.isStreaming(new ReadableStream())];
      console.log(JSON.stringify(seen));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({
      entries: [
        ['a', '2'],
        ['b', '1, 3'],
      ],
      checks: [false, false, false, false, true],
      streams: [false, false, false],
      webStreams: false,
      member: 'own',
      trusted: ['Blob'],
      undici: false,
      real: [true, true, true],
      realStreams: [true, true],
    });
  });

  it('fails the build, naming the file, when a pattern it relies on is gone', async () => {
    const dir = await sdk({
      'client.mjs': CLIENT_MJS.replace('body instanceof FormData', 'isFormData(body)'),
      'internal/headers.mjs': HEADERS_MJS,
      'lib/EventStream.mjs': EVENT_STREAM_MJS,
      'internal/auth/x509-workload-identity-auth.mjs': X509_MJS,
    });
    await expect(bundle(dir)).rejects.toThrow(
      /"body instanceof FormData" is no longer in .*node_modules[\\/]openai[\\/]client\.mjs/,
    );
  });

  it('fails the build when the SDK no longer has the file it builds headers in', async () => {
    const dir = await sdk({
      'client.mjs': CLIENT_MJS.replace(/^export \{ buildHeaders.*$/m, ''),
      'lib/EventStream.mjs': EVENT_STREAM_MJS,
      'internal/auth/x509-workload-identity-auth.mjs': X509_MJS,
    });
    await expect(bundle(dir)).rejects.toThrow(/without node_modules\/openai\/internal\/headers\.mjs/);
  });
});
