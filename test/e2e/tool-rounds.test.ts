/**
 * A round's tool calls through the built CLI: two patches of one file in one round both land
 * (they run one after another), while calls on different files still run together.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, parseJsonOutput } from './harness.js';

const fx = cliFixture();

const patch = (file: string, old: string, replacement: string) => ({
  name: 'patch',
  arguments: JSON.stringify({ path: file, hunks: [{ old, new: replacement }] }),
});

describe('one round of tool calls', () => {
  it('applies two patches of the same file in one round, both of them', async () => {
    await fx.project.write('notes.txt', 'alpha\nbeta\ngamma\n');
    await fx.project.write('other.txt', 'one\n');
    fx.fake.push(
      {
        toolCalls: [
          patch('notes.txt', 'alpha', 'ALPHA'),
          patch('other.txt', 'one', 'ONE'),
          patch('./notes.txt', 'gamma', 'GAMMA'),
        ],
      },
      { text: 'Both edits made.' },
    );
    const run = await fx.run(['-p', 'edit', '--output-format', 'json', '--allow', 'patch']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls.map((call) => call.is_error)).toEqual([false, false, false]);
    expect(await readFile(path.join(fx.project.dir, 'notes.txt'), 'utf8')).toBe('ALPHA\nbeta\nGAMMA\n');
    expect(await readFile(path.join(fx.project.dir, 'other.txt'), 'utf8')).toBe('ONE\n');
  });
});
