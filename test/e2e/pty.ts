/**
 * Runs the built CLI in a real pseudo-terminal (node-pty) and keeps a headless xterm fed with its
 * output, so tests read the screen a person would see and type into it. Waits are screen
 * conditions with a deadline; dispose kills the agent's whole process group.
 */
import { Terminal } from '@xterm/headless';
import * as pty from 'node-pty';
import { afterEach } from 'vitest';
import type { FakeModel } from '../fixtures/fake-model.js';
import { CLI, cliArgs, cliFixture, type Project, testEnv } from './harness.js';

export interface PtyOptions {
  project: Project;
  modelUrl?: string;
  env?: Record<string, string | undefined>;
  cols?: number;
  rows?: number;
  args?: string[];
  /** Node's own options before the CLI (V8 flags NODE_OPTIONS does not take). */
  nodeArgs?: string[];
  /** Pass `--trust` (default); false starts as in a folder never trusted (the question appears). */
  trusted?: boolean;
}

export interface PtySession {
  readonly pid: number;
  /** The visible screen, one line per row (trailing spaces trimmed), joined with `\n`. */
  screen(): string;
  /**
   * Every row of the active screen, its scrollback first (trailing spaces trimmed, trailing empty
   * rows dropped): after the TUI leaves the alternate screen, what the terminal keeps.
   */
  lines(): string[];
  /** Everything the process wrote to the terminal so far, escape sequences and all. */
  output(): string;
  /** Resolves once the screen matches; rejects with the screen's content after `timeoutMs`. */
  waitFor(match: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves once `predicate(screen)` holds. */
  waitUntil(predicate: (screen: string) => boolean, description: string, timeoutMs?: number): Promise<void>;
  send(keys: string): void;
  resize(cols: number, rows: number): void;
  /** Resolves with the exit code once the process ends. */
  exited(timeoutMs?: number): Promise<number>;
  dispose(): Promise<void>;
}

export const KEYS = {
  enter: '\r',
  escape: '\u001b',
  up: '\u001b[A',
  down: '\u001b[B',
  ctrlC: '\u0003',
  ctrlD: '\u0004',
  pageUp: '\u001b[5~',
  pageDown: '\u001b[6~',
} as const;

const POLL_MS = 25;

export function spawnTui(options: PtyOptions): PtySession {
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  const env = testEnv({
    project: options.project,
    modelUrl: options.modelUrl,
    env: { TERM: 'xterm-256color', ...options.env },
  });
  const child = pty.spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), CLI, ...cliArgs(options.args ?? [], options.trusted)],
    {
      name: 'xterm-256color',
      cols,
      rows,
      cwd: options.project.dir,
      env: Object.fromEntries(
        Object.entries(env).filter((pair): pair is [string, string] => pair[1] !== undefined),
      ),
    },
  );
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  // Writes to the emulator are asynchronous; count them so reads see every byte received so far.
  let pendingWrites = 0;
  const received: string[] = [];
  child.onData((data) => {
    received.push(data);
    pendingWrites++;
    term.write(data, () => {
      pendingWrites--;
    });
  });
  let exitCode: number | undefined;
  const exit = new Promise<number>((resolve) => {
    child.onExit(({ exitCode: code }) => {
      exitCode = code;
      resolve(code);
    });
  });

  const screen = (): string => {
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < term.rows; i++)
      lines.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };

  const waitUntil = (predicate: (text: string) => boolean, description: string, timeoutMs = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + timeoutMs;
      const check = () => {
        if (pendingWrites === 0 && predicate(screen())) return resolve();
        if (Date.now() > deadline) {
          return reject(new Error(`timed out waiting for ${description}; screen:\n${screen()}`));
        }
        setTimeout(check, POLL_MS);
      };
      check();
    });

  const lines = (): string[] => {
    const buffer = term.buffer.active;
    const all: string[] = [];
    for (let i = 0; i < buffer.length; i++) all.push(buffer.getLine(i)?.translateToString(true) ?? '');
    while (all.length > 0 && all.at(-1) === '') all.pop();
    return all;
  };

  return {
    pid: child.pid,
    screen,
    lines,
    output: () => received.join(''),
    waitUntil,
    waitFor: (match, timeoutMs) =>
      waitUntil(
        (text) => (typeof match === 'string' ? text.includes(match) : match.test(text)),
        typeof match === 'string' ? JSON.stringify(match) : String(match),
        timeoutMs,
      ),
    send: (keys) => child.write(keys),
    resize: (newCols, newRows) => {
      child.resize(newCols, newRows);
      term.resize(newCols, newRows);
    },
    exited: (timeoutMs = 15_000) =>
      Promise.race([
        exit,
        new Promise<number>((_, reject) =>
          setTimeout(
            () => reject(new Error(`process did not exit; screen:\n${screen()}`)),
            timeoutMs,
          ).unref(),
        ),
      ]),
    dispose: async () => {
      if (exitCode === undefined) {
        // node-pty makes the child a session (and group) leader: kill the whole group.
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
        await exit;
      }
      term.dispose();
    },
  };
}

export interface TuiFixture {
  /** This test's project (a fresh temp folder, trusted unless the test says otherwise). */
  readonly project: Project;
  /** This test's scripted model. */
  readonly fake: FakeModel;
  /** TUIs started by the test, disposed after it. */
  readonly sessions: PtySession[];
  /** Starts the TUI on this test's project and model; `defaults` first, then `options`. */
  start(options?: Partial<PtyOptions>): PtySession;
}

/**
 * The setup most TUI tests share, registered in the calling file: `cliFixture()`'s project and
 * fake model; after each test, every TUI it started is disposed, then the model and the project.
 */
export function tuiFixture(defaults: Partial<PtyOptions> = {}): TuiFixture {
  const cli = cliFixture();
  const sessions: PtySession[] = [];
  // Registered after cliFixture's hooks, so it runs before them: TUIs go before their model.
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((session) => session.dispose()));
  });
  return {
    get project() {
      return cli.project;
    },
    get fake() {
      return cli.fake;
    },
    sessions,
    start: (options = {}) => {
      const session = spawnTui({ project: cli.project, modelUrl: cli.fake.url, ...defaults, ...options });
      sessions.push(session);
      return session;
    },
  };
}
