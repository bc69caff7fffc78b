/**
 * lib/openai.cjs keeps only the SDK resources the providers call (scripts/bundle-plugins/
 * openai-resources.mjs): every other resource module of the installed SDK becomes a stand-in that
 * Node loads with exactly the original's export names, and a client built from an SDK of stand-ins
 * still sends a Chat Completions request.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script without types.
import * as plugin from '../../../scripts/bundle-plugins/openai-resources.mjs';

const { keptResource, openaiUsedResources, standIn } = plugin;

const require = createRequire(import.meta.url);
const RESOURCES = path.join(path.dirname(require.resolve('openai')), 'resources');

function resourceFiles(dir = RESOURCES): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return resourceFiles(file);
    return entry.name.endsWith('.mjs') ? [file] : [];
  });
}

/** The stand-in as a data: module, its relative re-exports pointed at the SDK's own files. */
function standInUrl(file: string): string {
  const text = standIn(readFileSync(file, 'utf8'), file).replace(
    /from "(\.[^"]+)"/g,
    (_: string, specifier: string) =>
      `from "${pathToFileURL(path.resolve(path.dirname(file), specifier)).href}"`,
  );
  return `data:text/javascript,${encodeURIComponent(text)}`;
}

describe('openai resources the providers do not call', () => {
  it('keeps chat and responses, and leaves out the rest', () => {
    const kept = (relative: string) => keptResource(path.join(RESOURCES, relative));
    expect(kept('chat/completions/completions.mjs')).toBe(true);
    expect(kept('responses/responses.mjs')).toBe(true);
    expect(kept('index.mjs')).toBe(true);
    expect(kept('beta/beta.mjs')).toBe(false);
    expect(kept('beta/responses/responses.mjs')).toBe(false);
    expect(kept('admin/admin.mjs')).toBe(false);
    expect(kept('embeddings.mjs')).toBe(false);
  });

  it('a stand-in exports exactly what the real module does, for every left-out module', async () => {
    const left = resourceFiles().filter((file) => !keptResource(file));
    expect(left.length).toBeGreaterThan(100);
    const differing: string[] = [];
    for (const file of left) {
      const real = Object.keys(await import(pathToFileURL(file).href)).sort();
      const stand = Object.keys(await import(standInUrl(file))).sort();
      if (JSON.stringify(real) !== JSON.stringify(stand)) differing.push(path.relative(RESOURCES, file));
    }
    expect(differing).toEqual([]);
  });

  it('a client bundled with the stand-ins builds every resource and sends a chat request', async () => {
    const result = await build({
      stdin: {
        contents: [
          "import OpenAI from 'openai';",
          'export async function ask(fetch) {',
          "  const client = new OpenAI({ apiKey: 'k', baseURL: 'http://model.test/v1', fetch, maxRetries: 0 });",
          "  const reply = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });",
          '  return { text: reply.choices[0].message.content, beta: typeof client.beta, admin: typeof client.admin };',
          '}',
        ].join('\n'),
        resolveDir: path.dirname(require.resolve('openai')),
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
      plugins: [openaiUsedResources],
    });
    const code = result.outputFiles[0]!.text;
    // Without the stand-ins the bundle holds every resource's class (esbuild writes `Assistants = class extends …`).
    expect(code).not.toMatch(/Assistants = class extends/);
    const module = { exports: {} as { ask: (fetch: typeof globalThis.fetch) => Promise<unknown> } };
    new Function('module', 'exports', 'require', code)(module, module.exports, require);
    const urls: string[] = [];
    const answer = await module.exports.ask(async (input) => {
      urls.push(String(input));
      const body = { id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [] as unknown[] };
      body.choices.push({
        index: 0,
        finish_reason: 'stop',
        message: { role: 'assistant', content: 'hello' },
      });
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    });
    expect(urls).toEqual(['http://model.test/v1/chat/completions']);
    expect(answer).toEqual({ text: 'hello', beta: 'object', admin: 'object' });
  });
});
