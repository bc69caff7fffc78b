/**
 * The knowledge base reads files as `read` and `search` do (issue 25): a hard-linked file (its
 * other name may be outside the root) and secret files are skipped with a reason — `rag_add` of
 * the file itself or of its folder never puts their text into the index or before the model.
 */
import { link, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, parseJsonOutput } from './harness.js';

const fx = cliFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

describe('knowledge base sources', () => {
  it('rag_add skips a file hard-linked from outside the root, alone or in its folder', async () => {
    const outside = path.join(fx.project.home, 'private-notes.txt');
    await writeFile(outside, 'The vault combination is PLANTED-HARDLINK-7731.');
    await fx.project.write('docs/guide.md', 'The staging server restarts at midnight.');
    await link(outside, path.join(fx.project.dir, 'docs', 'notes.txt'));
    await fx.project.write('docs/deploy.pem', 'PLANTED-PEM-IN-FOLDER');
    fx.fake.push(
      {
        toolCalls: [call('rag_add', { source: 'docs/notes.txt' }), call('rag_add', { source: 'docs' })],
      },
      { toolCalls: [call('rag_search', { query: 'vault combination PLANTED' })] },
      { text: 'ok' },
    );
    const run = await fx.run(['-p', 'index the docs', '--output-format', 'json', '--allow', 'rag_add']);
    expect(run.code, run.stderr).toBe(0);
    const [single, folder, search] = parseJsonOutput(run).tool_calls;
    expect(single!.result).toContain('skipped docs/notes.txt: it has 2 hard links');
    expect(folder!.result).toContain('skipped docs/notes.txt: it has 2 hard links');
    expect(folder!.result).not.toContain('deploy.pem');
    expect(search!.result).not.toContain('PLANTED');
    const sent = JSON.stringify(fx.fake.requests.map((request) => request.body));
    expect(sent).not.toContain('PLANTED-HARDLINK-7731');
    expect(sent).not.toContain('PLANTED-PEM-IN-FOLDER');

    const searched = await fx.run(['-p', '/rag search vault combination']);
    expect(searched.stdout).not.toContain('PLANTED');
    expect(searched.stdout).toContain('no chunk matches');
  });
});
