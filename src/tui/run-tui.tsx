/**
 * The interactive face's entry: builds the app with the TUI approver, takes over the terminal
 * (alternate screen, raw keys), renders, starts the MCP servers, and on exit stops every server,
 * restores the terminal and prints `bye`. Signals end the run the same way.
 */
import { render } from 'ink';
import type { App, AppOptions } from '../app/create-app.js';
import { rootOf } from '../app/create-mcp.js';
import { describeStartupError } from '../app/errors.js';
import { modelSampling, type SamplingApprover, samplingMessagesText } from '../mcp/sampling.js';
import type { ApprovalRequest } from '../permissions/types.js';
import { TuiApprover } from './approver.js';
import { TuiApp } from './components/TuiApp.js';
import { TuiElicitor } from './elicitor.js';
import { InputHistory } from './history.js';
import { TuiSession } from './session.js';
import { captureOutput, enterFullScreen } from './terminal.js';

/** Sampling requests become questions in the same queue as tool approvals. */
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
      const answer = await approver.ask(request, signal);
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
}

/** What the process scope (set up by the CLI) offers the TUI. */
export interface TuiScope {
  /** Work to run when a signal ends the run. */
  onShutdown(handler: () => Promise<void>): void;
  /** Synchronous undo before a crash report is printed (leave the alternate screen). */
  beforeFatal(handler: () => void): void;
}

export interface TuiOptions {
  io: TuiIO;
  scope: TuiScope;
  /** Builds the app with the CLI's flags; the TUI adds how it asks and answers servers. */
  createApp(face: Pick<AppOptions, 'approver' | 'features'>): Promise<App>;
}

export async function runTui({ io, scope, createApp }: TuiOptions): Promise<number> {
  const { onShutdown, beforeFatal } = scope;
  const approver = new TuiApprover();
  const elicitor = new TuiElicitor();
  // The session exists only after the app; sampling reports to it through this late link.
  let session: TuiSession | undefined;
  let app: App;
  try {
    app = await createApp({
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

  const leaveFullScreen = enterFullScreen(io.stdin, io.stdout);
  const releaseOutput = captureOutput((text, kind) => session.notice(text, kind));
  const ink = render(<TuiApp session={session} stdout={io.stdout} />, {
    stdin: io.stdin,
    stdout: io.stdout,
    stderr: io.stderr,
    exitOnCtrlC: false,
    // Our own capture turns console output into transcript lines instead of printing it.
    patchConsole: false,
  });
  let restored = false;
  const restoreTerminal = () => {
    if (restored) return;
    restored = true;
    ink.unmount();
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
  await session.exited;
  restoreTerminal();
  session.dispose();
  await Promise.all([app.shutdown(), history.flush()]);
  io.stdout.write('bye\n');
  if (app.sessions.saved) io.stdout.write(`resume with: geekagent --resume ${app.sessions.currentId}\n`);
  return 0;
}
