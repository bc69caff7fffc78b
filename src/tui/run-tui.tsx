/**
 * The interactive face's entry: builds the app with the TUI approver, takes over the terminal
 * (alternate screen, raw keys), renders, starts the MCP servers, and on exit stops every server,
 * restores the terminal and prints `bye`. Signals end the run the same way.
 */
import type { App, AppOptions } from '../app/create-app.js';
import { rootOf } from '../app/create-mcp.js';
import { describeStartupError } from '../app/errors.js';
import { modelSampling, type SamplingApprover, samplingMessagesText } from '../mcp/sampling.js';
import type { ApprovalRequest } from '../permissions/types.js';
import type { ProcessGroupTracker } from '../process/group-tracker.js';
import { decideTrust, type FolderTrust, trustFolder } from '../trust/decide.js';
import { trustQuestionLines, untrustedNotice } from '../trust/describe.js';
import { TuiApprover } from './approver.js';
import { TuiElicitor } from './elicitor.js';
import { InputHistory } from './history.js';
import { loadProductionReact } from './react-production.js';
import { TuiSession } from './session.js';
import { captureOutput, enterFullScreen } from './terminal.js';
import { askTrust } from './trust-question.js';

/**
 * Sampling requests become questions in the same queue as tool approvals, answered only by an
 * explicit choice: one can arrive while the person is typing.
 */
function samplingApprover(approver: TuiApprover, session: () => TuiSession | undefined): SamplingApprover {
  return {
    approve: async (server, params, signal) => {
      const request: ApprovalRequest = {
        toolName: 'sampling',
        title: `MCP server ${server} asks the model to answer (sampling/createMessage)`,
        detail: `${params.systemPrompt ? `system: ${params.systemPrompt}\n` : ''}${samplingMessagesText(params)}`,
        kind: 'mcp',
        server,
      };
      const answer = await approver.ask(request, signal, { explicit: true });
      session()?.recordQuestion(request, answer);
      return answer !== 'no';
    },
    answered: (server, text) => session()?.notice(`[sampling for ${server}] ${text}`),
  };
}

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
  /** Runs `body` inside the CLI's process scope (signals, crash handling, the process tracker). */
  withScope<T>(body: (scope: TuiScope) => Promise<T>): Promise<T>;
  /** Waits for cleanup work at most the shutdown grace period (never rejects). */
  cleanupWithin(work: Promise<unknown>): Promise<void>;
  /** Builds the app with the CLI's flags; the TUI adds trust, the tracker and how it asks. */
  createApp(face: Pick<AppOptions, 'approver' | 'features' | 'trust' | 'tracker'>): Promise<App>;
}

/** Asks once, before anything of the folder runs, when it declares something not yet trusted. */
async function folderTrust(cwd: string, flag: boolean, io: TuiIO): Promise<FolderTrust | undefined> {
  const trust = await decideTrust({ projectDir: cwd, env: io.env, flag });
  if (trust.state === 'trusted') return trust;
  const answer = await askTrust(io, trustQuestionLines(trust));
  if (answer === 'quit') return undefined;
  return answer === 'trust' ? trustFolder(trust.declarations, { env: io.env }) : trust;
}

export async function runTui(options: TuiOptions): Promise<number> {
  const { io } = options;
  let trust: FolderTrust | undefined;
  try {
    trust = await folderTrust(options.cwd, options.trustFlag, io);
  } catch (error) {
    io.stderr.write(`${describeStartupError(error)}\n`);
    return 1;
  }
  if (!trust) return 130;
  const folder = trust;
  return options.withScope((scope) => runInScope(options, folder, scope));
}

async function runInScope(
  { io, createApp, cleanupWithin }: TuiOptions,
  folder: FolderTrust,
  { tracker, onShutdown, beforeFatal }: TuiScope,
): Promise<number> {
  // First, while nothing runs alongside that could see the NODE_ENV it sets for the load.
  const { mount } = await loadProductionReact(() => import('./mount.js'), io.env);
  const approver = new TuiApprover();
  const elicitor = new TuiElicitor();
  // The session exists only after the app; sampling reports to it through this late link.
  let session: TuiSession | undefined;
  let app: App;
  try {
    app = await createApp({
      trust: folder,
      tracker,
      approver,
      features: ({ provider, root }) => ({
        elicitation: elicitor,
        sampling: modelSampling(
          provider,
          samplingApprover(approver, () => session),
        ),
        roots: () => [rootOf(root)],
      }),
    });
  } catch (error) {
    io.stderr.write(`${describeStartupError(error)}\n`);
    return 1;
  }
  const history = InputHistory.forProject(app.projectDir);
  await history.load();
  session = new TuiSession({ app, approver, elicitor, history });
  history.listen((message) => session?.notice(message, 'error'));

  const leaveFullScreen = enterFullScreen(io.stdin, io.stdout);
  const releaseOutput = captureOutput((text, kind) => session.notice(text, kind));
  const unmount = mount(session, io);
  let restored = false;
  const restoreTerminal = () => {
    if (restored) return;
    restored = true;
    unmount();
    leaveFullScreen();
    releaseOutput();
  };
  beforeFatal(restoreTerminal);
  onShutdown(async () => {
    session?.requestExit();
    restoreTerminal();
    await app.shutdown();
  });

  session.start();
  // The first frame is out: the model client loads now, while the person types.
  app.provider.prepare?.();
  const ignored = untrustedNotice(folder);
  if (ignored) session.notice(ignored.replace(/^geekagent: /, ''));
  for (const notice of app.notices) session.notice(notice, 'error');
  await session.exited;
  restoreTerminal();
  session.dispose();
  // Bounded: /exit ends the process within 2 s, whatever a tool or a server is doing.
  await cleanupWithin(Promise.all([app.shutdown(), history.flush()]));
  io.stdout.write('bye\n');
  if (app.sessions.saved) io.stdout.write(`resume with: geekagent --resume ${app.sessions.currentId}\n`);
  return 0;
}
