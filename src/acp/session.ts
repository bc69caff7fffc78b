/**
 * One ACP session: one App in the session's folder (its trust decided as print mode decides it,
 * the editor's MCP servers added as the person's own, file and terminal I/O through the editor
 * when it offers them), one TurnController driving its turns, and every event streamed back as
 * `session/update`. The ACP session id is the GeekAgent session id, so `session/load` finds it;
 * its file is written at `session/new` already, so a session without a turn loads too, and the
 * mode and model chosen in it are part of it.
 */
import {
  type AgentContext,
  type ClientCapabilities,
  type ContentBlock,
  type McpServer,
  RequestError,
  type SessionConfigOption,
  type SessionModeState,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk/unstable';
import { type App, createApp } from '../app/create-app.js';
import { rootOf } from '../app/create-mcp.js';
import { cutLine, TurnController, type TurnOutcome } from '../app/turn-controller.js';
import { decideFolderTrust } from '../boot/folder-trust.js';
import { CommandTable } from '../commands/types.js';
import { refuseSampling } from '../mcp/client-features.js';
import type { ProcessGroupTracker } from '../process/group-tracker.js';
import type { SessionStart } from '../sessions/manager.js';
import { TodoStore } from '../todos/extension.js';
import { untrustedNotice } from '../trust/describe.js';
import { errorMessage } from '../util/errors.js';
import { AcpApprover, acpElicitation, permissionAsker } from './approver.js';
import { clientCommandRunner, clientFileAccess } from './client-io.js';
import { mcpConfigValue, promptImages, promptText, replayUpdates } from './convert.js';
import { EditTracker } from './diffs.js';
import { MODEL_OPTION, modelOptions, offered } from './models.js';
import { MODE_STATE_KEY, modeState, recordMode, restoreMode } from './modes.js';
import { TurnUpdates } from './turn-updates.js';
import { commandsUpdate, planUpdate, textChunk } from './updates.js';

export interface SessionDeps {
  client: AgentContext;
  caps: ClientCapabilities | undefined;
  /** The agent process's environment (never a project's `.env`). */
  env: NodeJS.ProcessEnv;
  tracker: ProcessGroupTracker;
}

export interface SessionParams {
  cwd: string;
  mcpServers: readonly McpServer[];
  start: SessionStart;
  /** The editor's `additionalDirectories`: absolute folders, extra roots for the file tools. */
  additionalDirectories?: readonly string[];
}

export class AcpSession {
  private app!: App;
  private controller!: TurnController;
  private id = '';
  private busy = false;
  private cancelled = false;
  private outcome: TurnOutcome | undefined;
  /** Said at the start of the first prompt's answer (an untrusted folder, start-up problems). */
  private readonly firstWords: string[] = [];
  /** What each turn event becomes in the editor (turn-updates.ts). */
  private updates!: TurnUpdates;
  private lastCommands = '';
  private readonly stops: Array<() => void> = [];
  private sending: Promise<void> = Promise.resolve();
  /** While set, command output is collected here instead of shown (a config switch's errors). */
  private capture: string[] | undefined;

  private constructor(private readonly deps: SessionDeps) {}

  static async open(params: SessionParams, deps: SessionDeps): Promise<AcpSession> {
    const session = new AcpSession(deps);
    await session.build(params);
    return session;
  }

  get sessionId(): string {
    return this.id;
  }

  private async build(params: SessionParams): Promise<void> {
    const { client, caps, env, tracker } = this.deps;
    const sessionId = () => this.id;
    // Nobody is asked about the folder: as print mode, an untrusted folder runs without its declarations.
    const trust = await decideFolderTrust({ projectDir: params.cwd, env });
    const ignored = untrustedNotice(trust);
    if (ignored)
      this.firstWords.push(
        `${ignored.replace(/^geekagent: /, '')}. To trust it, run \`geekagent trust ${params.cwd}\` in a terminal, then start a new session.`,
      );
    const asker = permissionAsker(client, sessionId);
    const servers = mcpConfigValue(params.mcpServers);
    this.app = await createApp({
      cwd: params.cwd,
      env,
      trust,
      approver: new AcpApprover(asker),
      tracker,
      session: params.start,
      ...(params.additionalDirectories?.length ? { extraRoots: params.additionalDirectories } : {}),
      features: ({ root }) => ({
        elicitation: acpElicitation(asker, (text) => this.send(textChunk(`\n${text}\n`))),
        sampling: refuseSampling,
        roots: () => [rootOf(root)],
      }),
      ...(servers ? { mcpConfig: { values: [servers], strict: false } } : {}),
      fileAccess: clientFileAccess(caps, client, sessionId),
      // A command runs only in a turn, once `updates` is set.
      commandRunner: clientCommandRunner(caps, client, sessionId, (callId, terminalId) =>
        this.updates.terminalOpened(callId, terminalId),
      ),
    });
    const app = this.app;
    this.id = app.sessions.currentId;
    if (params.start.kind === 'new') {
      try {
        app.sessions.persist();
      } catch (error) {
        // The session still works; its file is tried again with the first change.
        this.firstWords.push(`This session could not be saved yet: ${errorMessage(error)}.`);
      }
    }
    const kept = restoreMode(app);
    if (kept) this.firstWords.push(kept);
    this.updates = new TurnUpdates(
      app,
      new EditTracker(app, clientFileAccess(caps, client, sessionId)),
      (update) => this.send(update),
    );
    for (const notice of app.notices) this.firstWords.push(notice);
    this.controller = new TurnController(app, {
      print: (text, kind) => {
        if (this.capture) {
          if (kind === 'error') this.capture.push(text);
          return;
        }
        this.send(textChunk(`${text}\n`));
      },
      exit: () => undefined,
      event: (event) => this.updates.event(event),
      turnEnded: (_input, outcome) => {
        this.outcome = outcome;
      },
    });
    const todos = new TodoStore(app.conversation);
    this.stops.push(
      app.conversation.onChange((change) => {
        if (change.type === 'state' && change.key === 'todos') this.send(planUpdate(todos.todos));
      }),
      app.extensions.onNotice((message) => this.send(textChunk(`\n${message}\n`))),
      app.extensions.onChange(() => this.sendCommands()),
      app.approvalMode.onChange((mode) => {
        recordMode(app, mode);
        this.send({ sessionUpdate: 'current_mode_update', currentModeId: mode });
      }),
      // A reset drops the session's state: the mode in use is the session's still.
      app.conversation.onChange((change) => {
        if (
          change.type === 'truncate' &&
          change.after === null &&
          app.conversation.state(MODE_STATE_KEY) === undefined
        )
          recordMode(app, app.approvalMode.current);
      }),
      app.backgroundShells.onSettle(({ callId }) => this.updates.shellSettled(callId)),
    );
    // Servers start now, as in the TUI: their prompts become commands before the first prompt.
    app.extensions.start();
  }

  /** The command list (and a loaded session's context fill), once the editor knows the session id. */
  announce(): void {
    setImmediate(() => {
      this.sendCommands();
      if (this.app.conversation.messages.length > 0) this.send(this.usageUpdate());
    });
  }

  /** `session/load`: the saved conversation again, before the load's answer. */
  async replay(): Promise<void> {
    for (const update of replayUpdates(this.app.conversation.messages, this.app.root))
      await this.send(update);
    const todos = new TodoStore(this.app.conversation).todos;
    if (todos.length > 0) await this.send(planUpdate(todos));
  }

  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.busy)
      throw RequestError.invalidRequest(
        { sessionId: this.id },
        'a prompt is already running in this session: wait for its answer or send session/cancel',
      );
    this.busy = true;
    this.cancelled = false;
    this.outcome = undefined;
    try {
      for (const words of this.firstWords.splice(0)) await this.send(textChunk(`${words}\n\n`));
      const text = promptText(blocks);
      const images = promptImages(blocks);
      if (text === '' && images.length === 0) return 'end_turn';
      if (CommandTable.isCommand(text)) {
        await this.controller.runCommand(text, { waitReady: true });
        if (this.cancelled) return 'cancelled';
      } else {
        this.outcome = await this.controller.runTurn(text, true, { images });
      }
      this.sendCommands();
      const reason = this.stopReason();
      this.send(this.usageUpdate());
      await this.sending;
      return reason;
    } finally {
      this.busy = false;
    }
  }

  private stopReason(): StopReason {
    const outcome = this.outcome;
    if (this.cancelled) return 'cancelled';
    switch (outcome?.kind) {
      case undefined:
      case 'completed':
        return 'end_turn';
      case 'max_rounds':
        return 'max_turn_requests';
      case 'cut':
        // The editor shows the stop reason; the line says why, in words, for the ones ACP has none for.
        this.send(textChunk(`\n\n(${cutLine(outcome)})\n`));
        return outcome.result.stop.reason === 'max_tokens'
          ? 'max_tokens'
          : outcome.result.stop.reason === 'refusal'
            ? 'refusal'
            : 'end_turn';
      case 'cancelled':
        return 'cancelled';
      case 'not_configured':
        throw RequestError.authRequired({ sessionId: this.id }, outcome.message);
      case 'failed':
        this.send(textChunk(`\n${outcome.message}\n`));
        return 'end_turn';
    }
  }

  /** How full the context window is (ACP's `usage_update`; no cost: prices are not known here). */
  private usageUpdate(): SessionUpdate {
    return {
      sessionUpdate: 'usage_update',
      used: this.app.conversation.contextTokens,
      size: this.app.provider.contextWindow,
    };
  }

  /** The session's config options (the model select). */
  configOptions(): Promise<SessionConfigOption[]> {
    return modelOptions(this.app);
  }

  /** The approval modes as ACP session modes. */
  modes(): SessionModeState {
    return modeState(this.app);
  }

  /** `session/set_mode`: switches the approval mode (bypass refused in a folder not trusted). */
  setMode(modeId: string): void {
    const problem = this.app.approvalMode.set(modeId);
    if (problem) throw RequestError.invalidParams({ modeId }, problem);
  }

  /** `session/set_config_option`: a model switch, through the terminal's own `/model`. */
  async setConfigOption(configId: string, value: unknown): Promise<SessionConfigOption[]> {
    const options = await this.configOptions();
    if (configId !== MODEL_OPTION || typeof value !== 'string' || !offered(options, value))
      throw RequestError.invalidParams({ configId, value }, `no such option or value: ${configId}`);
    if (this.busy)
      throw RequestError.invalidRequest({ sessionId: this.id }, 'wait for the running prompt first');
    const problems: string[] = [];
    this.capture = problems;
    try {
      if (!(await this.controller.runCommand(`/model ${value}`)))
        throw RequestError.invalidParams(
          { configId, value },
          problems.join('; ') || `cannot switch to ${value}`,
        );
    } finally {
      this.capture = undefined;
    }
    return this.configOptions();
  }

  /** `session/cancel`: the running turn (or command) ends; its prompt answers `cancelled`. */
  cancel(): void {
    if (!this.busy) return;
    this.cancelled = true;
    this.controller.cancel();
  }

  /** The editor went away or closed the session: stop the turn, the servers, the session file. */
  async close(): Promise<void> {
    this.cancel();
    for (const stop of this.stops.splice(0)) stop();
    this.controller.close();
    await this.app.shutdown();
  }

  private sendCommands(): void {
    const update = commandsUpdate(this.app.extensions.commands);
    const key = JSON.stringify(update);
    if (key === this.lastCommands || this.id === '') return;
    this.lastCommands = key;
    this.send(update);
  }

  /**
   * Updates leave in the order they were made, also one that waits for something (a diff), and
   * all of a turn's before its prompt's answer (`flush`). A client gone mid-turn is not an error
   * here: the connection's close ends the session.
   */
  private send(update: SessionUpdate | Promise<SessionUpdate | undefined>): Promise<void> {
    this.sending = this.sending
      .then(async () => {
        const ready = await update;
        if (ready) await this.deps.client.notify('session/update', { sessionId: this.id, update: ready });
      })
      .catch(() => undefined);
    return this.sending;
  }
}
