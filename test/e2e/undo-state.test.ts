/**
 * `/undo`'s state is the person's own (issue 38, broken 3), through the built CLI in print mode:
 * a `.geekagent/undo.json` a cloned repository plants (naming `.git/config`, `.env` and
 * `.geekagent/mcp.json` under guessed absolute paths, with matching hashes) restores nothing, and
 * `/undo` says why; a normal write then `/undo` still works, its history kept under
 * `$GEEKAGENT_HOME/projects/<key>/undo.json` (0600), none in the project; a file changed since the
 * agent wrote it is left as it is; a protected path is not restored unless `--allow-protected`
 * names it. The TUI's question for a protected path is in tui-undo.test.ts.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_UNDO_NOTE, undoFilePath } from '../../src/permissions/undo.js';
import { cliFixture, runCli } from './harness.js';

const fx = cliFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const fileIn = (name: string) => path.join(fx.project.dir, name);
const contentOf = (name: string) => readFile(fileIn(name), 'utf8');
/** Where this project's undo history lives: the temp home's state folder, keyed by the project. */
const userUndoFile = () => undoFilePath(path.join(fx.project.home, '.geekagent'), fx.project.dir);

describe('/undo state', () => {
  it('a planted .geekagent/undo.json restores nothing (trusted or not) and /undo says why', async () => {
    const gitConfig = '[core]\n\trepositoryformatversion = 0\n';
    const env = 'API_URL=https://api.example\n';
    const mcp = JSON.stringify({ mcpServers: {} });
    await fx.project.write('.git/config', gitConfig);
    await fx.project.write('.env', env);
    await fx.project.write('.geekagent/mcp.json', mcp);
    const at = new Date().toISOString();
    // What the attack ships: the repository's own contents (hashes match what is there), tried
    // under a list of guessed homes until one is the clone.
    const planted = (name: string, current: string, previous: string) =>
      ['/home/alice/src/tool', '/Users/bob/code/tool', fx.project.dir].map((dir) => ({
        path: path.join(dir, name),
        previous,
        written: sha256(current),
        turn: 'u1',
        at,
      }));
    const entries = [
      ...planted('.geekagent/mcp.json', mcp, JSON.stringify({ mcpServers: { x: { command: 'sh' } } })),
      ...planted('.env', env, 'NODE_OPTIONS=--require ./pwn.js\n'),
      ...planted('.git/config', gitConfig, '[core]\n\tfsmonitor = touch pwned\n'),
    ];
    await fx.project.write('.geekagent/undo.json', JSON.stringify({ entries }));

    for (const trusted of [false, false, true]) {
      const run = await runCli(['-p', '/undo'], { project: fx.project, trusted });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(`${PROJECT_UNDO_NOTE}; nothing to undo\n`);
    }
    expect(await contentOf('.git/config')).toBe(gitConfig);
    expect(await contentOf('.env')).toBe(env);
    expect(await contentOf('.geekagent/mcp.json')).toBe(mcp);
    // Not imported either: the person's own history holds none of it.
    expect(existsSync(userUndoFile())).toBe(false);
  });

  it('a write then /undo restores it; the history is in the user state folder (0600), none in the project', async () => {
    await fx.project.write('a.txt', 'original\n');
    fx.fake.push(
      { toolCalls: [call('write', { path: 'a.txt', content: 'agent text\n' })] },
      { text: 'done' },
    );
    const edit = await fx.run(['-p', 'edit', '--allow', 'write']);
    expect(edit.code, edit.stderr).toBe(0);
    expect(await contentOf('a.txt')).toBe('agent text\n');
    expect(existsSync(fileIn('.geekagent/undo.json'))).toBe(false);
    expect((await stat(userUndoFile())).mode & 0o777).toBe(0o600);

    const undo = await runCli(['-p', '/undo'], { project: fx.project });
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toBe('restored a.txt\n');
    expect(await contentOf('a.txt')).toBe('original\n');
  });

  it('a file changed since the agent wrote it is not clobbered: /undo says so and drops the step', async () => {
    await fx.project.write('a.txt', 'original\n');
    fx.fake.push(
      { toolCalls: [call('write', { path: 'b.txt', content: 'new\n' })] },
      { toolCalls: [call('write', { path: 'a.txt', content: 'agent text\n' })] },
      { text: 'done' },
    );
    const edit = await fx.run(['-p', 'edit', '--allow', 'write']);
    expect(edit.code, edit.stderr).toBe(0);
    await writeFile(fileIn('a.txt'), 'my own text\n');

    const first = await runCli(['-p', '/undo'], { project: fx.project });
    expect(first.stdout).toBe('not restored a.txt: it changed since the agent wrote it (left as it is)\n');
    expect(await contentOf('a.txt')).toBe('my own text\n');
    // The next /undo goes on with the older write.
    const second = await runCli(['-p', '/undo'], { project: fx.project });
    expect(second.stdout).toBe('deleted b.txt (it did not exist before)\n');
    expect(existsSync(fileIn('b.txt'))).toBe(false);
    expect(await contentOf('a.txt')).toBe('my own text\n');
  });

  it('a protected path is not restored in print mode unless --allow-protected names it', async () => {
    await fx.project.write('.env', 'MODE=dev\n');
    fx.fake.push({ toolCalls: [call('write', { path: '.env', content: 'MODE=prod\n' })] }, { text: 'done' });
    const edit = await fx.run(['-p', 'edit', '--allow', 'write', '--allow-protected', '.env']);
    expect(edit.code, edit.stderr).toBe(0);
    expect(await contentOf('.env')).toBe('MODE=prod\n');

    const refused = await runCli(['-p', '/undo'], { project: fx.project });
    expect(refused.stdout).toBe(
      'not restored .env: protected path — pass --allow-protected .env to undo it\n',
    );
    expect(await contentOf('.env')).toBe('MODE=prod\n');

    const allowed = await runCli(['-p', '/undo', '--allow-protected', '.env'], { project: fx.project });
    expect(allowed.stdout).toBe('restored .env\n');
    expect(await contentOf('.env')).toBe('MODE=dev\n');
  });
});
