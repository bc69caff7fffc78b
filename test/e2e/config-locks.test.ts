/**
 * Config writes from several agents at once: "always" answers (saveAnswer) and `mcp add` are
 * read-modify-written under the file's lock, so no process loses another's entry. Each writer is a
 * real process running the built modules, all released together.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { answersFileOf, createProject, type Project, REPO_ROOT } from './harness.js';

const WRITER = path.join(REPO_ROOT, 'test', 'fixtures', 'config-writer.mjs');
const DIST = path.join(REPO_ROOT, 'dist');
const WRITERS = 6;
const EACH = 15;

let project: Project;
beforeEach(async () => {
  project = await createProject();
});
afterEach(async () => {
  await project.cleanup();
});

/** Starts every writer, waits until all are loaded, releases them together, waits for all. */
async function writeConcurrently(kind: 'allow' | 'server', file: string): Promise<void> {
  const writers: Array<{
    child: ChildProcessWithoutNullStreams;
    output: () => string;
    code: Promise<number | null>;
  }> = [];
  for (let w = 0; w < WRITERS; w++) {
    const child = spawn(process.execPath, [WRITER, DIST, kind, file, `w${w}`, String(EACH)], {
      stdio: 'pipe',
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = new Promise<number | null>((resolve) => child.once('exit', resolve));
    writers.push({ child, output: () => output, code });
  }
  await waitFor(() => writers.every((w) => w.output().includes('ready')), {
    what: 'every writer to load',
    timeoutMs: 20_000,
  });
  for (const w of writers) w.child.stdin.write('go\n');
  const codes = await Promise.all(writers.map((w) => w.code));
  expect(codes, writers.map((w) => w.output()).join('\n')).toEqual(writers.map(() => 0));
}

const expectedNames = () =>
  Array.from({ length: WRITERS }, (_, w) => Array.from({ length: EACH }, (_, i) => `w${w}_${i}`)).flat();

describe('concurrent config writes keep every change', () => {
  it('"always" answers from several agents at once all land in the person\'s answers file', async () => {
    const file = answersFileOf(project);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ tools: { read: 'allow' } }));
    await writeConcurrently('allow', file);
    const tools = JSON.parse(await readFile(file, 'utf8')).tools as Record<string, string>;
    for (const name of expectedNames()) expect(tools[name], name).toBe('allow');
    expect(tools.read).toBe('allow');
  });

  it('servers added by several processes at once all land in mcp.json', async () => {
    const file = path.join(project.dir, '.geekagent', 'mcp.json');
    await writeConcurrently('server', file);
    const servers = JSON.parse(await readFile(file, 'utf8')).mcpServers as Record<string, unknown>;
    expect(Object.keys(servers).sort()).toEqual(expectedNames().sort());
  });
});
