/**
 * The current session of one run: which session the conversation is, every conversation change
 * appended to its file the moment it happens (so a `kill -9` loses at most the event in flight),
 * and switching — a new session, opening another (a tool call left without a result by a crash
 * gets a synthetic "interrupted" one, so the next request is valid), naming the current one.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Conversation } from '../agent/conversation.js';
import type { HistoryMessage } from '../agent/history.js';
import { errorMessage } from '../util/errors.js';
import { AppendFile, checkId, SessionError } from './files.js';
import { changeLine, headerLine, replay, titleOf } from './log.js';
import { adoptProjectSessions } from './project-import.js';
import { SessionStore, type SessionSummary } from './store.js';

/** Which session a run starts in. */
export type SessionStart =
  | { kind: 'new' }
  /** `--continue`: the latest session of this folder (a new one when there is none). */
  | { kind: 'continue' }
  /** `--resume <id>`: that session; a missing one is an error. */
  | { kind: 'resume'; id: string };

/** The start a `resume`/`continue` pair of options asks for (the CLI's flags, the library's options). */
export function sessionStart(options: {
  resume?: string | undefined;
  continue?: boolean | undefined;
}): SessionStart {
  if (options.resume !== undefined) return { kind: 'resume', id: options.resume };
  return options.continue ? { kind: 'continue' } : { kind: 'new' };
}

export interface SessionsOptions {
  projectDir: string;
  /** The user's state folder: the sessions are kept under it (files.ts). */
  userDir: string;
  conversation: Conversation;
  start: SessionStart;
  /** Tells the person something outside a turn (a save that failed, an import). */
  notice: (message: string, kind?: 'system' | 'error') => void;
  /**
   * Whether the sessions an earlier version kept in the project folder (`.geekagent/sessions`,
   * `.geekagent/sessions.json`) may be imported: only when the person trusts the folder — in a
   * cloned repository they are someone else's files, and `--continue` would pick them up.
   */
  importProjectSessions?: boolean;
  now?: () => number;
}

/** What opening a session found, for the face to say. */
export interface Opened {
  id: string;
  turns: number;
  /** Tool calls that had no result and were marked interrupted. */
  repaired: number;
  /** Unreadable lines skipped (a torn last line). */
  skipped: number;
}

export class Sessions {
  private id: string;
  private file: AppendFile;
  private title = '';
  private created: string;
  private broken = false;
  private readonly unsubscribe: () => void;
  /** Set once the first message is written: then the index learns the session. */
  private indexed = false;
  private indexing: Promise<void> = Promise.resolve();
  /** Turns of this session (user messages, rollbacks not counted, summarised ones still counted). */
  private turns = 0;
  /** User messages the history holds now: how many a rollback removed is the difference. */
  private userMessages = 0;
  /** Every user message of this session (rewound ones too) → when it was sent, 0 first. */
  private userOrder = new Map<string, number>();

  private constructor(
    private readonly store: SessionStore,
    private readonly options: SessionsOptions,
    id: string,
  ) {
    this.id = id;
    this.created = new Date(this.now()).toISOString();
    this.file = this.fileFor(id);
    this.unsubscribe = options.conversation.onChange((change) => {
      const line = changeLine(change, this.now());
      if (line) this.write(line);
      if (change.type === 'append') {
        if (change.message.role !== 'user') return;
        this.userOrder.set(change.message.id, this.userOrder.size);
        this.turns++;
        this.userMessages++;
        if (this.title === '') {
          this.title = titleOf(change.message.text);
          this.remember();
        }
        return;
      }
      if (change.type === 'usage' || change.type === 'state') return;
      const now = options.conversation.messages.filter((message) => message.role === 'user').length;
      if (change.type === 'truncate' || change.type === 'rewind')
        this.turns = Math.max(0, this.turns - (this.userMessages - now));
      this.userMessages = now;
    });
  }

  /** The run's session, per `start`; a `--resume` of a session that is not there throws SessionError. */
  static async create(options: SessionsOptions): Promise<{ sessions: Sessions; opened?: Opened }> {
    const store = new SessionStore(options.projectDir, options.userDir);
    const notLoaded = await adoptProjectSessions(
      store,
      options.importProjectSessions === true,
      options.notice,
    ).catch((error: unknown) => {
      options.notice(`could not import the sessions in .geekagent: ${errorMessage(error)}`, 'error');
      return undefined;
    });
    const start = options.start;
    if (start.kind === 'resume') checkId(start.id);
    const id =
      start.kind === 'resume' ? start.id : start.kind === 'continue' ? await store.latest() : undefined;
    const sessions = new Sessions(store, options, id ?? (await store.newId()));
    if (id === undefined) return { sessions };
    try {
      return { sessions, opened: await sessions.open(id) };
    } catch (error) {
      // The notice would be lost with the failed start: the error carries it.
      if (error instanceof SessionError && notLoaded)
        throw new SessionError(`${error.message}; ${notLoaded}`);
      throw error;
    }
  }

  get currentId(): string {
    return this.id;
  }

  /** The current session's file (it may not be written yet: a session with no message has none). */
  get currentFile(): string {
    return this.store.file(this.id);
  }

  get turnCount(): number {
    return this.turns;
  }

  /** Whether this session has a file yet (a session with no message is not written). */
  get saved(): boolean {
    return this.file.opened || this.indexed;
  }

  list(): Promise<SessionSummary[]> {
    return this.store.list();
  }

  /**
   * Writes the session's file now, before its first message (an editor's `session/new`: a client
   * that reconnects loads the id it was given, turn or no turn).
   */
  persist(): void {
    if (this.saved) return;
    this.file.ensure();
    this.remember();
  }

  /** A copy of session `id` under a new id (`session/fork`); this run's session is unchanged. */
  fork(id: string): Promise<string> {
    return this.store.fork(id, new Date(this.now()));
  }

  exists(id: string): Promise<boolean> {
    return this.store.exists(id);
  }

  /** `/new [id]`: an empty conversation in a new session; the current one stays saved. */
  async startNew(id?: string): Promise<string> {
    if (id !== undefined) {
      checkId(id);
      if (await this.store.exists(id))
        throw new SessionError(`a session named ${id} already exists (/open ${id} opens it)`);
    }
    this.switchTo(id ?? (await this.store.newId()));
    this.options.conversation.clear();
    return this.id;
  }

  /** `/open <id>`, `--resume`, `--continue`: that session's conversation, repaired if a run died mid-turn. */
  async open(id: string): Promise<Opened> {
    const replayed = await this.store.load(id);
    this.switchTo(id);
    this.title = replayed.title;
    this.created = replayed.header?.created ?? this.created;
    this.indexed = true;
    const { conversation } = this.options;
    this.turns = replayed.turns;
    this.userOrder = new Map(replayed.userOrder.map((messageId, index) => [messageId, index]));
    conversation.restore(replayed.state);
    // Recorded in the session's own file (the switch came first), so the log stays valid too.
    const repaired = conversation.history.repairToolResults();
    return { id, turns: replayed.turns, repaired, skipped: replayed.skipped };
  }

  /** `/save <id>`: the current session takes that name (its file is renamed). */
  async rename(id: string): Promise<void> {
    checkId(id);
    if (id === this.id) return;
    if (!this.saved) {
      if (await this.store.exists(id))
        throw new SessionError(`a session named ${id} already exists (pick another id)`);
      this.switchTo(id);
      return;
    }
    this.file.close();
    await this.store.rename(this.id, id);
    this.id = id;
    this.file = this.fileFor(id);
  }

  /**
   * Where a sub-agent's transcript goes: `<id>.agents/<runId>.jsonl` beside this session's file,
   * in the session log format, one line per change of the child's conversation.
   */
  childTranscript(runId: string): { file: string; record(conversation: Conversation): () => void } {
    checkId(runId);
    const file = path.join(path.dirname(this.store.file(this.id)), `${this.id}.agents`, `${runId}.jsonl`);
    const created = new Date(this.now()).toISOString();
    return {
      file,
      record: (conversation) => {
        const out = new AppendFile(
          file,
          () => headerLine({ id: runId, created, cwd: this.options.projectDir }),
          this.store.userDir,
        );
        let broken = false;
        const stop = conversation.onChange((change) => {
          const line = changeLine(change, this.now());
          if (!line || broken) return;
          try {
            out.append(line);
          } catch (error) {
            broken = true;
            this.options.notice(
              `sub-agent transcript ${runId} is not saved: ${errorMessage(error)}`,
              'error',
            );
          }
        });
        return () => {
          stop();
          out.close();
        };
      },
    };
  }

  /** A sub-agent transcript of this session, read-only, as lines for a person (`/agents log <run>`). */
  async childTranscriptText(runId: string): Promise<string> {
    checkId(runId);
    const file = this.childTranscript(runId).file;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new SessionError(`no sub-agent run ${runId} in session ${this.id} (/agents runs lists them)`);
      throw error;
    }
    return describeTranscript(replay(text).state.messages);
  }

  /** Sub-agent runs saved with this session, oldest first. */
  async childRuns(): Promise<string[]> {
    const dir = path.dirname(this.childTranscript('x').file);
    const names = await readdir(dir).catch(() => [] as string[]);
    return names
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => name.slice(0, -'.jsonl'.length))
      .sort();
  }

  /** The first line of the latest user message, shortened (a recap after /open). */
  lastUserMessage(): string | undefined {
    const messages = this.options.conversation.messages;
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i]!;
      if (message.role === 'user') return titleOf(message.text);
    }
    return undefined;
  }

  /**
   * Where a user message of this session comes in the order they were sent (rewound ones
   * included): which later turns' file writes a rewind to it takes back. Undefined: not this
   * session's.
   */
  sentOrder(messageId: string): number | undefined {
    return this.userOrder.get(messageId);
  }

  /** `/reset`: the conversation starts over in the same session (the file keeps the transcript). */
  reset(): void {
    this.options.conversation.history.truncateAfter(null);
  }

  /** Index updates still running (a first message, a rename) are done; the file is closed. */
  async close(): Promise<void> {
    this.unsubscribe();
    if (this.saved) this.remember();
    await this.indexing;
    this.file.close();
  }

  private switchTo(id: string): void {
    if (this.saved) this.remember();
    this.file.close();
    this.id = id;
    this.file = this.fileFor(id);
    this.title = '';
    this.created = new Date(this.now()).toISOString();
    this.indexed = false;
    this.broken = false;
    this.turns = 0;
    this.userOrder = new Map();
  }

  private fileFor(id: string): AppendFile {
    return new AppendFile(
      this.store.file(id),
      () => headerLine({ id, created: this.created, cwd: this.options.projectDir }),
      this.store.userDir,
    );
  }

  private write(line: string): void {
    if (this.broken) return;
    try {
      this.file.append(line);
    } catch (error) {
      // Once: a full disk must not turn every event into a message.
      this.broken = true;
      this.options.notice(`session ${this.id} is no longer being saved: ${errorMessage(error)}`, 'error');
    }
  }

  /** Tells the index what the session looks like now; in the background, one update at a time. */
  private remember(): void {
    const id = this.id;
    const entry = {
      title: this.title,
      created: this.created,
      updated: new Date(this.now()).toISOString(),
      turns: this.turns,
    };
    this.indexed = true;
    this.indexing = this.indexing.then(() => this.store.remember(id, entry)).catch(() => undefined);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

/** One block per message, long ones cut: a read-only look at a transcript. */
function describeTranscript(messages: readonly HistoryMessage[]): string {
  const cut = (text: string) =>
    text.length > 2_000 ? `${text.slice(0, 2_000)}… (${text.length} chars)` : text;
  return messages
    .map((message) => {
      switch (message.role) {
        case 'tool': {
          const output =
            typeof message.output === 'string'
              ? message.output
              : message.output
                  .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
                  .join('\n');
          return `tool ${message.name}${message.isError ? ' (error)' : ''}: ${cut(output)}`;
        }
        case 'assistant': {
          const calls = (message.toolCalls ?? []).map((call) => `  → ${call.name} ${cut(call.arguments)}`);
          return [`agent: ${cut(message.text)}`, ...calls].join('\n');
        }
        default:
          return `${message.role}: ${cut(message.text)}`;
      }
    })
    .join('\n');
}
