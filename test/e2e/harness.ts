/**
 * End-to-end harness: runs the BUILT CLI (`dist/cli/main.js`) as a subprocess in a temp project
 * folder with a temp HOME (and `GEEKAGENT_HOME` under it), pointed at the scripted fake model.
 * Projects are trusted by default (`--trust`); `trusted: false` runs as in a freshly cloned repo.
 * `npm test` builds first (pretest).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, inject } from 'vitest';
import { userProjectDir } from '../../src/config/project-state.js';
import { answersFilePath } from '../../src/permissions/answers-file.js';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { assertFreshDist } from '../helpers/fresh-dist.js';

import { CLI, DEMO_SERVER, FIXTURE_SERVERS, REPO_ROOT } from '../helpers/paths.js';

export { CLI, DEMO_SERVER, FIXTURE_SERVERS, REPO_ROOT };

// Every end-to-end file imports this harness: none runs an older dist/ than the sources the run
// started on (test/helpers/source-stamp-setup.ts), so editing while the suite runs changes nothing.
const stampAtStart = inject('sourceStampAtStart');
assertFreshDist(REPO_ROOT, stampAtStart ? JSON.parse(stampAtStart) : undefined);

export interface Project {
  dir: string;
  home: string;
  /** Writes a file under the project folder (parents created). */
  write(relative: string, content: string): Promise<string>;
  /** Writes `.geekagent/mcp.json`. */
  mcpServers(servers: Record<string, unknown>): Promise<void>;
  /** Writes `.geekagent/GeekAgent.json` tool rules (root ".."). */
  tools(rules: Record<string, string>): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createProject(): Promise<Project> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'geekagent-e2e-'));
  const dir = path.join(base, 'project');
  const home = path.join(base, 'home');
  await mkdir(dir, { recursive: true });
  await mkdir(home, { recursive: true });
  const write = async (relative: string, content: string) => {
    const file = path.join(dir, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    return file;
  };
  return {
    dir,
    home,
    write,
    mcpServers: async (servers) => {
      await write('.geekagent/mcp.json', JSON.stringify({ mcpServers: servers }, null, 2));
    },
    tools: async (rules) => {
      await write('.geekagent/GeekAgent.json', JSON.stringify({ root: '..', tools: rules }, null, 2));
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** The person's "always" answers for this project (in the test's GEEKAGENT_HOME). */
export function answersFileOf(project: Project): string {
  return answersFilePath(path.join(project.home, '.geekagent'), project.dir);
}

/** Where the person's own state for this project lives (history, pins, answers, undo, sessions). */
export function userProjectDirOf(project: Project): string {
  return userProjectDir(path.join(project.home, '.geekagent'), project.dir);
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  project: Project;
  modelUrl?: string;
  env?: Record<string, string | undefined>;
  input?: string;
  /** Stdin read from this file (as `geekagent … < file`), not a pipe carrying `input`. */
  stdinFile?: string;
  timeoutMs?: number;
  /** Pass `--trust` (default): the project's declarations apply without a trust record. */
  trusted?: boolean;
}

/** The CLI arguments of a run: `--trust` first unless the test wants an untrusted folder. */
export function cliArgs(args: readonly string[], trusted: boolean | undefined): string[] {
  return trusted === false ? [...args] : ['--trust', ...args];
}

/** The environment a test run gets: nothing from the developer's own setup leaks in. */
export function testEnv(options: RunOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: options.project.home,
    LANG: 'C.UTF-8',
    // Where user-level state goes (trusted.json, user mcp.json, auth): the temp home's own folder.
    GEEKAGENT_HOME: path.join(options.project.home, '.geekagent'),
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: options.modelUrl ?? 'http://127.0.0.1:9/v1',
    OPENAI_MODEL: 'fake-model',
    GEEKAGENT_MAX_RETRIES: '0',
    // Every server's tools in the first request, as a warm run has them: a busy test machine starts
    // servers slower than the 1 s grace. mcp-cold-start.test.ts takes this out to test the grace.
    GEEKAGENT_MCP_START_GRACE_MS: '120000',
  };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export function runCli(args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const stdinFd = options.stdinFile === undefined ? undefined : openSync(options.stdinFile, 'r');
    const child = spawn(process.execPath, [CLI, ...cliArgs(args, options.trusted)], {
      cwd: options.project.dir,
      env: testEnv(options),
      stdio: [stdinFd ?? 'pipe', 'pipe', 'pipe'],
    });
    if (stdinFd !== undefined) closeSync(stdinFd);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`geekagent ${args.join(' ')} did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    }, options.timeoutMs ?? 45_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin?.end(options.input ?? '');
  });
}

export interface JsonToolCall {
  name: string;
  arguments: unknown;
  decision: string;
  result: string;
  is_error: boolean;
}

export interface JsonOutput {
  result: string;
  tool_calls: JsonToolCall[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cached_tokens?: number };
}

export function parseJsonOutput(run: RunResult): JsonOutput {
  try {
    return JSON.parse(run.stdout) as JsonOutput;
  } catch {
    throw new Error(`stdout is not one JSON object:\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

/** Text of the tool message for `callId`-less lookups: the Nth tool message the model received. */
export function toolMessages(body: { messages: Array<Record<string, unknown>> }): string[] {
  return body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

export interface CliFixture {
  /** This test's project (a fresh temp folder, trusted unless a run says otherwise). */
  readonly project: Project;
  /** This test's scripted model. */
  readonly fake: FakeModel;
  /** Runs the built CLI on this test's project and model; `defaults` first, then `options`. */
  run(args: string[], options?: Partial<RunOptions>): Promise<RunResult>;
}

/**
 * The setup most non-TUI tests share, registered in the calling file: before each test a project
 * and a fake model; after it, the model is closed and the project removed (after the file's own
 * afterEach hooks, which run first). The TUI's equivalent is `tuiFixture()` in pty.ts.
 */
export function cliFixture(defaults: Partial<RunOptions> = {}): CliFixture {
  let project: Project | undefined;
  let fake: FakeModel | undefined;
  beforeEach(async () => {
    project = await createProject();
    fake = await startFakeModel();
  });
  afterEach(async () => {
    await fake?.close();
    await project?.cleanup();
  });
  const fixture: CliFixture = {
    get project() {
      if (!project) throw new Error('cliFixture: the project exists only inside a test');
      return project;
    },
    get fake() {
      if (!fake) throw new Error('cliFixture: the model exists only inside a test');
      return fake;
    },
    run: (args, options = {}) =>
      runCli(args, { project: fixture.project, modelUrl: fixture.fake.url, ...defaults, ...options }),
  };
  return fixture;
}
