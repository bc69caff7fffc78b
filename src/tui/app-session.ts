/**
 * The half of the TUI's start that needs the app: builds it with the TUI's approver, elicitation
 * form and sampling questions, then the session. Loaded after the first
 * frame is on screen (run-tui.tsx), so the app's module graph is not in the way of that frame.
 */
import type { App, AppOptions } from '../app/create-app.js';
import { rootOf } from '../app/create-mcp.js';
import { modelSetupLines } from '../config/model-setup.js';
import { modelsFile } from '../config/named-models.js';
import { modelSampling, type SamplingApprover, samplingMessagesText } from '../mcp/sampling.js';
import { type ApprovalRequest, approves } from '../permissions/types.js';
import type { ProcessGroupTracker } from '../process/group-tracker.js';
import type { FolderTrust } from '../trust/decide.js';
import { TuiApprover } from './approver.js';
import { TuiElicitor } from './elicitor.js';
import type { InputHistory } from './history.js';
import { TuiSession } from './session.js';

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
      return approves(answer);
    },
    answered: (server, text) => session()?.notice(`[sampling for ${server}] ${text}`),
  };
}

export interface OpenSessionOptions {
  /** Builds the app with the CLI's flags; the TUI adds trust, the tracker and how it asks. */
  createApp(
    face: Pick<AppOptions, 'approver' | 'features' | 'trust' | 'tracker' | 'askTrust' | 'onTrusted'>,
  ): Promise<App>;
  folder: FolderTrust;
  tracker: ProcessGroupTracker;
  /** The project's input history, already read (the start-up front used it). */
  history: InputHistory;
}

export interface OpenedSession {
  app: App;
  session: TuiSession;
  /** No model configured: what to set, with the lines to copy (shown as the session opens). */
  modelSetup?: string;
}

export async function openSession({
  createApp,
  folder,
  tracker,
  history,
}: OpenSessionOptions): Promise<OpenedSession> {
  const approver = new TuiApprover();
  const elicitor = new TuiElicitor();
  // The session exists only after the app; sampling reports to it through this late link.
  let session: TuiSession | undefined;
  const app = await createApp({
    trust: folder,
    // A reload's new or changed project command or skill: the start's question, on the session's screen.
    askTrust: (question, signal) => session?.askTrust(question, signal) ?? Promise.resolve(false),
    // `/trust` answered yes: an earlier version's `.geekagent/history` is the person's now.
    onTrusted: () => history.importLegacy(true),
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
  try {
    const opened = new TuiSession({ app, approver, elicitor, history });
    session = opened;
    history.listen((message) => opened.notice(message, 'error'));
    const modelSetup = app.settings.apiKey
      ? undefined
      : modelSetupLines(app.settings, modelsFile(app.userDir)).join('\n');
    return { app, session: opened, ...(modelSetup ? { modelSetup } : {}) };
  } catch (error) {
    await app.shutdown();
    throw error;
  }
}
