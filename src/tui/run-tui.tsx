/**
 * The interactive face's entry: builds the app with the TUI approver, takes over the terminal
 * (alternate screen, raw keys), renders, starts the MCP servers, and on exit stops every server,
 * restores the terminal and prints `bye`. Signals end the run the same way.
 */
import { render } from 'ink';
import { type App, createApp } from '../app/create-app.js';
import { rootOf } from '../app/create-mcp.js';
import { withProcessScope } from '../cli/process-scope.js';
import type { ChatOptions, CliIO } from '../cli/program.js';
import { describeStartupError, flagOptions } from '../cli/run-chat.js';
import { createCommandTable } from '../commands/builtin.js';
import { modelSampling, type SamplingApprover, samplingMessagesText } from '../mcp/sampling.js';
import type { ApprovalRequest } from '../permissions/types.js';
import { decideTrust, type FolderTrust, trustFolder } from '../trust/decide.js';
import { trustQuestionLines, untrustedNotice } from '../trust/describe.js';
import { TuiApprover } from './approver.js';
import { TuiApp } from './components/TuiApp.js';
import { TuiElicitor } from './elicitor.js';
import { InputHistory } from './history.js';
import { TuiSession } from './session.js';
import { captureOutput, enterFullScreen } from './terminal.js';
import { askTrust } from './trust-question.js';

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

/** Asks once, before anything of the folder runs, when it declares something not yet trusted. */
async function folderTrust(cwd: string, options: ChatOptions, io: CliIO): Promise<FolderTrust | undefined> {
  const trust = await decideTrust({ projectDir: cwd, env: io.env, flag: options.trust === true });
  if (trust.state === 'trusted') return trust;
  const answer = await askTrust(io, trustQuestionLines(trust));
  if (answer === 'quit') return undefined;
  return answer === 'trust' ? trustFolder(trust.declarations, { env: io.env }) : trust;
}

export async function runTui(cwd: string, options: ChatOptions, io: CliIO): Promise<number> {
  let trust: FolderTrust | undefined;
  try {
    trust = await folderTrust(cwd, options, io);
  } catch (error) {
    io.stderr.write(`${describeStartupError(error)}\n`);
    return 1;
  }
  if (!trust) return 130;
  const folder = trust;
  return withProcessScope(io.stderr, async ({ tracker, onShutdown, beforeFatal }) => {
    const approver = new TuiApprover();
    const elicitor = new TuiElicitor();
    // The session exists only after the app; sampling reports to it through this late link.
    let session: TuiSession | undefined;
    let app: App;
    try {
      app = await createApp({
        ...flagOptions(cwd, options, io),
        trust: folder,
        approver,
        tracker,
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
    session = new TuiSession({ app, commands: createCommandTable(), approver, elicitor, history });
    history.listen((message) => session?.notice(message, 'error'));

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
    const ignored = untrustedNotice(folder);
    if (ignored) session.notice(ignored.replace(/^geekagent: /, ''));
    for (const notice of app.notices) session.notice(notice, 'error');
    await session.exited;
    restoreTerminal();
    session.dispose();
    await Promise.all([app.shutdown(), history.flush()]);
    io.stdout.write('bye\n');
    return 0;
  });
}
