/**
 * The knowledge base end to end: `/rag add` of a folder (binaries and duplicates skipped), search
 * with `source:line` citations from a fresh process (the index survives a restart), a changed
 * file re-indexed alone, CJK text found by a CJK query, a URL added through the fetch rules (a
 * local server on the GeekAgent.json allow list), `/rag remove`.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createIndex } from '../../src/search/index.js';
import { cliFixture, parseJsonOutput } from './harness.js';

const fx = cliFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

async function run(args: string[]) {
  const result = await fx.run(args);
  expect(result.code, result.stderr).toBe(0);
  return result;
}

const filler = (n: number) =>
  Array.from({ length: n }, (_, i) => `Line ${i + 1} talks about ordinary things.`).join('\n');

describe('knowledge base', () => {
  it('adds a folder, cites source:line after a restart, re-indexes a changed file alone, finds CJK text', async () => {
    await fx.project.write(
      'docs/engine.md',
      `${filler(29)}\nThe flux capacitor needs 1.21 gigawatts to start.\n${filler(5)}`,
    );
    await fx.project.write(
      'docs/copy.md',
      `${filler(29)}\nThe flux capacitor needs 1.21 gigawatts to start.\n${filler(5)}`,
    );
    await fx.project.write('docs/notes.txt', 'The warp core runs on dilithium crystals.');
    await fx.project.write('docs/zh.md', '本项目的向量数据库使用余弦相似度来比较文档。');
    await fx.project.write('docs/logo.png', '\u0000PNG binary\u0000data');
    const added = await run(['-p', '/rag add docs']);
    expect(added.stdout).toContain('knowledge base: 3 indexed, 0 unchanged, 1 duplicate, 1 skipped');
    expect(added.stdout).toMatch(/skipped docs\/logo\.png: binary/);
    // Progress goes to stderr (stdout stays the answer): piped, a compact line, always the last.
    expect(added.stderr).toContain('[####################] 5/5 sources · ');
    expect(added.stdout).not.toContain('[#');

    fx.fake.push(
      { toolCalls: [call('rag_search', { query: 'how many gigawatts does the flux capacitor need' })] },
      { text: 'ok' },
    );
    const searched = parseJsonOutput(await run(['-p', 'power?', '--output-format', 'json']));
    expect(searched.tool_calls[0]!.result).toMatch(/^\[docs\/(engine|copy)\.md:\d+-\d+\]/);
    expect(searched.tool_calls[0]!.result).toContain('1.21 gigawatts');

    const cjk = await run(['-p', '/rag search 余弦相似度']);
    expect(cjk.stdout.split('\n')[0]).toContain('docs/zh.md:1');

    await fx.project.write('docs/notes.txt', 'The warp core now runs on antimatter.');
    const again = await run(['-p', '/rag add docs']);
    expect(again.stdout).toContain('1 indexed, 2 unchanged, 1 duplicate, 1 skipped');
    expect(again.stdout).toContain('re-indexed docs/notes.txt');
    const warp = await run(['-p', '/rag search antimatter warp core']);
    expect(warp.stdout).toContain('docs/notes.txt:1');
    expect((await run(['-p', '/rag search dilithium'])).stdout).toContain('no chunk matches');

    const removed = await run(['-p', '/rag remove docs/notes.txt']);
    expect(removed.stdout).toContain('removed docs/notes.txt');
    const listed = await run(['-p', '/rag']);
    expect(listed.stdout).toMatch(/knowledge base: 2 sources, \d+ chunks/);
    expect(listed.stdout).not.toContain('notes.txt');
  });

  it('adds a URL through the fetch rules: refused on loopback, allowed with fetch.allowHosts', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body><h1>Runbook</h1><p>Rotate the quantum keys every Tuesday.</p></body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const url = `http://localhost:${port}/runbook`;
      const refused = await run(['-p', `/rag add ${url}`]);
      expect(refused.stdout).toMatch(/skipped http:\/\/localhost:\d+\/runbook: .*refused/);

      await fx.project.write(
        '.geekagent/GeekAgent.json',
        JSON.stringify({ root: '..', fetch: { allowHosts: [`localhost:${port}`] } }),
      );
      fx.fake.push({ toolCalls: [call('rag_add', { source: url })] }, { text: 'added' });
      const added = parseJsonOutput(
        await run(['-p', 'add the runbook', '--output-format', 'json', '--allow', 'rag_add']),
      );
      expect(added.tool_calls[0]!.result).toContain(`indexed ${url}`);
      const found = await run(['-p', '/rag search when to rotate quantum keys']);
      expect(found.stdout).toContain(`${url}:`);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
  it("imports the described system's .geekagent/rag/index.json", async () => {
    await fx.project.write(
      '.geekagent/rag/index.json',
      JSON.stringify([
        { source: 'old/guide.md', text: 'Backups run nightly at 02:00 to the cold storage bucket.' },
        { source: 'old/guide.md', text: 'Restores need two approvals.' },
      ]),
    );
    const found = await run(['-p', '/rag search nightly backups cold storage']);
    expect(found.stdout).toContain('old/guide.md:1');
    const listed = await run(['-p', '/rag']);
    expect(listed.stdout).toMatch(/knowledge base: 1 sources, 1 chunks/);
  });

  it('reads a knowledge base of the earlier format and moves it to format 2 on the next add, saying so', async () => {
    const text = 'Backups run nightly at 02:00 to the cold storage bucket.';
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 32);
    const index = createIndex({ fields: { text: {} } });
    index.add(`${hash}:0`, { text });
    await fx.project.write(
      `.geekagent/rag/chunks/${hash}.json`,
      JSON.stringify([{ line: 1, endLine: 1, text }]),
    );
    await fx.project.write('.geekagent/rag/search-index.json', JSON.stringify(index.toJSON()));
    await fx.project.write(
      '.geekagent/rag/catalog.json',
      JSON.stringify({
        version: 1,
        sources: [{ source: 'old/guide.md', hash, bytes: 57, chunks: 1, added: '' }],
      }),
    );
    const listed = await run(['-p', '/rag']);
    expect(listed.stdout).toContain('knowledge base: 1 sources, 1 chunks');
    expect(listed.stdout).toContain('stored in format 1');
    await fx.project.write('docs/new.md', 'Restores need two approvals.');
    const added = await run(['-p', '/rag add docs']);
    expect(added.stdout).toContain('moved the knowledge base to format 2 (2 sources');
    expect((await run(['-p', '/rag search nightly cold storage'])).stdout).toContain('old/guide.md:1');
    expect((await run(['-p', '/rag search two approvals'])).stdout).toContain('docs/new.md:1');
    expect((await run(['-p', '/rag'])).stdout).not.toContain('format 1');
  });
});
