/**
 * A session leaves the person's repository alone (issue 41): in a real git repository, a print
 * turn, a TUI session answering `a` and the next session leave `git status` showing only what the
 * model changed. The person's answers, input history and MCP pins live in their own state folder
 * (GEEKAGENT_HOME here), keyed by the project, and apply on the next run.
 */
import { execFileSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  answersFileOf,
  DEMO_SERVER,
  type Project,
  parseJsonOutput,
  runCli,
  userProjectDirOf,
} from './harness.js';
import { KEYS, tuiFixture } from './pty.js';

const fx = tuiFixture({ rows: 40, cols: 120 });
const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
const count = (text: string, needle: string) => text.split(needle).length - 1;

function git(project: Project, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: project.dir,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: project.home,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  });
}

/** A repository with one commit; `files` are committed with it. */
async function repository(files: Record<string, string> = {}): Promise<void> {
  git(fx.project, 'init', '-q');
  await fx.project.write('README.md', '# app\n');
  for (const [name, content] of Object.entries(files)) await fx.project.write(name, content);
  git(fx.project, 'add', '-A');
  git(fx.project, 'commit', '-q', '-m', 'start');
}

describe('the repository after a session', () => {
  it('a print turn in a folder nobody configured creates nothing but what the model wrote', async () => {
    await repository();
    fx.fake.push({ toolCalls: [call('write', { path: 'hello.txt', content: 'hi\n' })] }, { text: 'written' });
    const run = await runCli(['-p', 'write hello', '--allow', 'write', '--output-format', 'json'], {
      project: fx.project,
      modelUrl: fx.fake.url,
      trusted: false,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(parseJsonOutput(run).result).toBe('written');
    expect(git(fx.project, 'status', '--porcelain', '--untracked-files=all')).toBe('?? hello.txt\n');
    // The undo history went to the person's own state.
    await stat(path.join(userProjectDirOf(fx.project), 'undo.json'));
  });

  it('a TUI session answering a, then the next one: the answer holds, git status shows only the model’s file', async () => {
    await repository({
      '.geekagent/mcp.json': JSON.stringify({
        mcpServers: { demo: { command: process.execPath, args: [DEMO_SERVER] } },
      }),
    });
    fx.fake.push(
      { toolCalls: [call('mcp_demo_dice', {})] },
      { toolCalls: [call('write', { path: 'notes.txt', content: 'rolled\n' })] },
      { text: 'First roll done.' },
    );
    const first = fx.start({ args: ['--allow', 'write'] });
    await first.waitFor('MCP demo(2)');
    first.send('roll');
    first.send(KEYS.enter);
    await first.waitFor('About to call MCP tool: mcp_demo_dice');
    first.send('a');
    await first.waitFor('First roll done.');
    first.send('/exit');
    first.send(KEYS.enter);
    expect(await first.exited()).toBe(0);

    expect(git(fx.project, 'status', '--porcelain', '--untracked-files=all')).toBe('?? notes.txt\n');
    const own = userProjectDirOf(fx.project);
    expect(JSON.parse(await readFile(answersFileOf(fx.project), 'utf8'))).toEqual({
      tools: { 'mcp:demo/dice': 'allow' },
    });
    expect(await readFile(path.join(own, 'history'), 'utf8')).toBe('"roll"\n"/exit"\n');
    expect(JSON.parse(await readFile(path.join(own, 'mcp-pins.json'), 'utf8')).pins).toHaveLength(1);

    // The next session in the same folder: the answer holds, nothing is asked; ↑↑ recalls "roll".
    fx.fake.push({ toolCalls: [call('mcp_demo_dice', {})] }, { text: 'Second roll done.' });
    const second = fx.start();
    // Started lazily from the cached listing this time.
    await second.waitFor('MCP demo(2');
    second.send(KEYS.up);
    second.send(KEYS.up);
    await second.waitUntil(
      (screen) => screen.trimEnd().split('\n').pop()?.startsWith('› roll') ?? false,
      'the recalled input',
    );
    second.send(KEYS.enter);
    await second.waitFor('Second roll done.');
    expect(count(second.screen(), 'About to call MCP tool')).toBe(0);
    second.send('/exit');
    second.send(KEYS.enter);
    expect(await second.exited()).toBe(0);
    expect(git(fx.project, 'status', '--porcelain', '--untracked-files=all')).toBe('?? notes.txt\n');
  });
});
