/**
 * The interactive face's entry: takes over the terminal (alternate screen, raw keys), draws the
 * first frame, asks the folder-trust question on it when needed, then builds the app and its
 * session behind it (app-session.ts), and on exit stops every server, restores the terminal,
 * leaves the conversation in the scrollback and prints `bye`. Signals end the run the same way.
 *
 * The first frame (input line, panel) needs only Ink, React and the screen's components: it is
 * drawn before the app's modules load, before the model client and before any server starts. A
 * start-up front (front.ts) stands in for the session until then: keys edit the input line, a
 * line sent with Enter waits for the session, Ctrl+C leaves. The trust question is the front's
 * too, so keys typed before it was drawn are the input line's, never its answer (trust-keys.ts).
 */
import type { App, AppOptions } from '../app/create-app.js';
import { describeStartupError } from '../app/errors.js';
import { decideFolderTrust } from '../boot/folder-trust.js';
import { userStateDir } from '../config/paths.js';
import type { ProcessGroupTracker } from '../process/group-tracker.js';
import { type FolderTrust, trustFolder } from '../trust/decide.js';
import { untrustedNotice } from '../trust/describe.js';
import { checkStateDir } from '../util/state-dir.js';
import type { OpenedSession } from './app-session.js';
import { SessionFront } from './front.js';
import { InputHistory } from './history.js';
import type { Mounted } from './mount.js';
import { loadProductionReact } from './react-production.js';
import { captureOutput, enterFullScreen } from './terminal.js';
import type { Entry } from './types.js';

export interface TuiIO {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

/** What the process scope (set up by the CLI) offers the TUI. */
export interface TuiScope {
  /** Every process group the run starts (MCP servers). */
  tracker: ProcessGroupTracker;
  /** Work to run when a signal ends the run. */
  onShutdown(handler: () => Promise<void>): void;
  /** Synchronous undo before a crash report is printed (leave the alternate screen). */
  beforeFatal(handler: () => void): void;
}

export interface TuiOptions {
  io: TuiIO;
  cwd: string;
  /** `--trust`: the folder's declarations apply for this run without asking. */
  trustFlag: boolean;
  /** `geekagent "…"`: a first message, sent as if typed (it waits for the session like one). */
  prompt?: string;
  /** Runs `body` inside the CLI's process scope (signals, crash handling, the process tracker). */
  withScope<T>(body: (scope: TuiScope) => Promise<T>): Promise<T>;
  /** Waits for cleanup work at most the shutdown grace period (never rejects). */
  cleanupWithin(work: Promise<unknown>): Promise<void>;
  /**
   * Builds the app with the CLI's flags; the TUI adds trust, the tracker and how it asks. Called
   * once the first frame is drawn: it may load the app's modules itself.
   */
  createApp(
    face: Pick<AppOptions, 'approver' | 'features' | 'trust' | 'tracker' | 'askTrust' | 'onTrusted'>,
  ): Promise<App>;
}

/**
 * Asks once, on the drawn screen and before anything of the folder runs, when it declares
 * something not yet trusted; undefined when the person quits instead.
 */
async function folderTrust(
  decided: Promise<FolderTrust>,
  front: SessionFront,
  env: NodeJS.ProcessEnv,
): Promise<FolderTrust | undefined> {
  const trust = await decided;
  if (trust.state === 'trusted') return trust;
  const answer = await front.askTrust(trust);
  if (answer === 'quit') return undefined;
  return answer === 'trust'
    ? trustFolder(trust.declarations, { env, ...(trust.files ? { files: trust.files } : {}) })
    : trust;
}

export async function runTui(options: TuiOptions): Promise<number> {
  const { io } = options;
  // Ink and React load while the folder's trust is read: loading runs nothing of the folder, and
  // nothing else runs yet that could see the NODE_ENV set for the load.
  const screen = loadProductionReact(() => import('./mount.js'), io.env);
  screen.catch(() => undefined);
  const decided = decideFolderTrust({ projectDir: options.cwd, env: io.env, flag: options.trustFlag });
  decided.catch(() => undefined);
  return options.withScope((scope) => runInScope(options, decided, scope, screen));
}

/** The transcript on the normal screen, after leaving the alternate one; never fails the exit. */
function writeScrollback(
  stdout: NodeJS.WriteStream,
  mounted: Mounted | undefined,
  entries: readonly Entry[],
): void {
  if (!mounted) return;
  try {
    const text = mounted.scrollback(entries, Math.max(20, stdout.columns || 80));
    if (text !== '') stdout.write(`${text}\n`);
  } catch {
    // The conversation is in the session file either way.
  }
}

type Start =
  | { kind: 'opened'; opened: OpenedSession }
  | { kind: 'failed'; error: unknown }
  | { kind: 'left' };

async function runInScope(
  { io, cwd, createApp, cleanupWithin, prompt }: TuiOptions,
  decided: Promise<FolderTrust>,
  { tracker, onShutdown, beforeFatal }: TuiScope,
  screen: Promise<typeof import('./mount.js')>,
): Promise<number> {
  // The person's input history for this folder (in their own state), read while Ink loads: ↑
  // works from the first frame. A planted `.geekagent` link is left for createApp to report.
  const history = InputHistory.forProject(cwd, userStateDir(io.env));
  const historyRead = checkStateDir(cwd).then(
    () => history.load(),
    () => undefined,
  );
  // Raw keys from here on: what the person types while the rest loads is kept for the input line.
  const leaveFullScreen = enterFullScreen(io.stdin, io.stdout);
  const front = new SessionFront(history);
  if (prompt !== undefined) front.submit(prompt);
  const releaseOutput = captureOutput((text, kind) => front.notice(text, kind));
  let mounted: Mounted | undefined;
  let restored = false;
  const restoreTerminal = () => {
    if (restored) return;
    restored = true;
    mounted?.unmount();
    leaveFullScreen();
    releaseOutput();
  };
  beforeFatal(restoreTerminal);
  let opening: Promise<OpenedSession> | undefined;
  onShutdown(async () => {
    front.requestExit();
    restoreTerminal();
    const opened = await opening?.catch(() => undefined);
    await opened?.app.shutdown();
  });

  const [{ mount }] = await Promise.all([screen, historyRead]);
  if (restored) return 1;
  mounted = mount(front, io);

  // The frame is out: the folder's trust (asked on it), then the app's modules, the app and the
  // session. Leaving before the answer starts nothing.
  let folder: FolderTrust | 'left' | undefined;
  try {
    folder = await Promise.race([
      folderTrust(decided, front, io.env),
      front.exited.then(() => 'left' as const),
    ]);
  } catch (error) {
    restoreTerminal();
    io.stderr.write(`${describeStartupError(error)}\n`);
    return 1;
  }
  if (folder === 'left') {
    restoreTerminal();
    io.stdout.write('bye\n');
    return 0;
  }
  // Quit at the trust question: nothing was started.
  if (!folder) {
    restoreTerminal();
    return 130;
  }
  const trusted = folder;
  // An earlier version's `.geekagent/history`: imported when the folder is trusted, else mentioned.
  await history.importLegacy(trusted.state === 'trusted');
  opening = import('./app-session.js').then(({ openSession }) =>
    openSession({ createApp, folder: trusted, tracker, history }),
  );
  const start = await Promise.race<Start>([
    opening.then(
      (opened) => ({ kind: 'opened', opened }),
      (error: unknown) => ({ kind: 'failed', error }),
    ),
    front.exited.then(() => ({ kind: 'left' })),
  ]);
  if (start.kind !== 'opened') {
    restoreTerminal();
    if (start.kind === 'failed') {
      io.stderr.write(`${describeStartupError(start.error)}\n`);
      return 1;
    }
    // Left before the app was ready: whatever it started stops with it (bounded; the process
    // scope kills any server still running after that).
    await cleanupWithin(opening.then(({ app }) => app.shutdown()));
    io.stdout.write('bye\n');
    return 0;
  }
  const { app, session, modelSetup } = start.opened;
  session.start();
  front.attach(session);
  // The session draws from here on: the model client loads now, while the person types.
  app.provider.prepare?.();
  // No model yet: say so now, with the lines to copy, not only once a message is sent.
  if (modelSetup) session.notice(modelSetup);
  const ignored = untrustedNotice(trusted);
  // Here the person can change their mind at once: /trust asks the question again.
  if (ignored) session.notice(`${ignored.replace(/^geekagent: /, '')} — or /trust now`);
  for (const notice of app.notices) session.notice(notice, 'error');
  await session.exited;
  restoreTerminal();
  // The alternate screen is gone with the conversation on it: it stays in the scrollback, as
  // what a terminal program writes does.
  writeScrollback(io.stdout, mounted, session.snapshot().entries);
  session.dispose();
  // Bounded: /exit ends the process within 2 s, whatever a tool or a server is doing.
  await cleanupWithin(Promise.all([app.shutdown(), history.flush()]));
  io.stdout.write('bye\n');
  if (app.sessions.saved) io.stdout.write(`resume with: geekagent --resume ${app.sessions.currentId}\n`);
  return 0;
}
