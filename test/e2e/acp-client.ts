/**
 * The editor side of the ACP e2e tests: starts the BUILT `geekagent acp` as a subprocess on a
 * test project and the fake model, and drives it with the SDK's own client (`client()`), whose
 * handlers play the editor — permission answers, in-memory buffers for `fs/*`, real processes for
 * `terminal/*` — and record what the agent asked for. Every stdout line is kept raw too, so a
 * test can check that stdout carries nothing but JSON-RPC.
 */
import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  type ClientCapabilities,
  type ClientConnection,
  client,
  type InitializeResponse,
  ndJsonStream,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
  type SessionNotification,
  type SessionUpdate,
  type ToolCallContent,
} from '@agentclientprotocol/sdk';
import { afterEach } from 'vitest';
import { FIXTURE_SERVERS } from '../helpers/paths.js';
import { CLI, type CliFixture, type Project, testEnv } from './harness.js';

export interface EditorOptions {
  project: Project;
  modelUrl: string;
  env?: Record<string, string | undefined>;
  caps?: ClientCapabilities;
  /** The option chosen for each permission request, in order (default: allow_once; 'wait': none). */
  answers?: string[];
  /** Files the editor has open, by absolute path: fs/read_text_file answers from here first. */
  buffers?: Map<string, string>;
  /**
   * false: terminal/output never carries `exitStatus` (it is optional; acp-factory leaves it out),
   * so the exit code is only in terminal/wait_for_exit's answer.
   */
  exitStatusInOutput?: boolean;
}

export interface TerminalRecord {
  id: string;
  command: string;
  args: string[];
  cwd: string | null | undefined;
  output: string;
  exit?: { exitCode: number | null; signal: string | null };
  released: boolean;
}

export interface Editor {
  child: ChildProcess;
  connection: ClientConnection;
  stdoutLines: string[];
  stderr(): string;
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  writes: Array<{ path: string; content: string }>;
  reads: string[];
  terminals: TerminalRecord[];
  /** The updates of one session, optionally one kind. */
  of(sessionId: string, kind?: SessionUpdate['sessionUpdate']): SessionUpdate[];
  /** The content of every tool_call_update of one session, in order. */
  toolContents(sessionId: string): ToolCallContent[];
  /** All agent_message_chunk text of one session. */
  text(sessionId: string): string;
  initialize(): Promise<InitializeResponse>;
  newSession(mcpServers?: unknown[]): Promise<string>;
  prompt(sessionId: string, text: string): Promise<string>;
  /** Closes stdin and resolves with the exit code. */
  close(): Promise<number | null>;
  exited: Promise<number | null>;
}

/** A stdio MCP server an editor passes in session/new: the marker fixture, writing to `marker`. */
export function markerServer(name: string, marker: string) {
  return {
    name,
    command: process.execPath,
    args: [path.join(FIXTURE_SERVERS, 'marker.mjs'), marker],
    env: [],
  };
}

/** The built `geekagent acp` on the project and model, over pipes, as an editor starts it. */
export function spawnAcp(
  options: Pick<EditorOptions, 'project' | 'modelUrl' | 'env'>,
): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [CLI, 'acp'], {
    cwd: options.project.dir,
    env: testEnv({ project: options.project, modelUrl: options.modelUrl, env: options.env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/**
 * The editors of one test file, on `fx`'s project and model: after each test every editor's stdin
 * is closed (the agent exits by itself) and one still running after 5 s is killed.
 */
export function editorFixture(fx: CliFixture): (options?: Partial<EditorOptions>) => Editor {
  const editors: Editor[] = [];
  afterEach(async () => {
    for (const editor of editors.splice(0)) {
      editor.child.stdin?.end();
      if (editor.child.exitCode === null) {
        const timer = setTimeout(() => editor.child.kill('SIGKILL'), 5000);
        await editor.exited;
        clearTimeout(timer);
      }
    }
  });
  return (options = {}) => {
    const started = startEditor({ project: fx.project, modelUrl: fx.fake.url, ...options });
    editors.push(started);
    return started;
  };
}

export function startEditor(options: EditorOptions): Editor {
  const child = spawnAcp(options);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const stdoutLines: string[] = [];
  let partial = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const writes: Array<{ path: string; content: string }> = [];
  const reads: string[] = [];
  const terminals: TerminalRecord[] = [];
  const processes = new Map<string, ChildProcess>();
  const answers = [...(options.answers ?? [])];
  const buffers = options.buffers ?? new Map<string, string>();

  const app = client({ name: 'e2e-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', async ({ params, signal }) => {
      permissions.push(params);
      const answer = answers.shift() ?? 'allow_once';
      // 'wait': the person never answers; the question ends when the agent withdraws it.
      if (answer === 'wait') {
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        return { outcome: { outcome: 'cancelled' } };
      }
      return { outcome: { outcome: 'selected', optionId: answer } };
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      reads.push(params.path);
      const text = buffers.get(params.path);
      if (text === undefined) throw new Error(`no buffer for ${params.path}`);
      return { content: text };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      writes.push({ path: params.path, content: params.content });
      buffers.set(params.path, params.content);
      return {};
    })
    .onRequest('terminal/create', ({ params }) => {
      const record: TerminalRecord = {
        id: `term-${terminals.length + 1}`,
        command: params.command,
        args: params.args ?? [],
        cwd: params.cwd,
        output: '',
        released: false,
      };
      terminals.push(record);
      const proc = spawn(params.command, params.args ?? [], {
        cwd: params.cwd ?? undefined,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        record.output += chunk;
      });
      proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        record.output += chunk;
      });
      proc.on('close', (code, signal) => {
        record.exit = { exitCode: code, signal };
      });
      processes.set(record.id, proc);
      return { terminalId: record.id };
    })
    .onRequest('terminal/output', ({ params }) => {
      const record = terminals.find((item) => item.id === params.terminalId);
      const exitStatus = options.exitStatusInOutput === false ? null : (record?.exit ?? null);
      return { output: record?.output ?? '', truncated: false, exitStatus };
    })
    .onRequest('terminal/wait_for_exit', async ({ params }) => {
      const proc = processes.get(params.terminalId);
      const record = terminals.find((item) => item.id === params.terminalId);
      if (proc && !record?.exit) await new Promise((resolve) => proc.on('close', resolve));
      return record?.exit ?? { exitCode: null, signal: null };
    })
    .onRequest('terminal/kill', ({ params }) => {
      processes.get(params.terminalId)?.kill('SIGKILL');
      return {};
    })
    .onRequest('terminal/release', ({ params }) => {
      processes.get(params.terminalId)?.kill('SIGKILL');
      const record = terminals.find((item) => item.id === params.terminalId);
      if (record) record.released = true;
      return {};
    });

  // Raw lines are kept while the SDK reads the same bytes.
  const stdout = Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>;
  const [forSdk, forLog] = stdout.tee();
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of forLog as unknown as AsyncIterable<Uint8Array>) {
      partial += decoder.decode(chunk, { stream: true });
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      stdoutLines.push(...lines.filter((line) => line !== ''));
    }
  })();
  const connection = app.connect(
    ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, forSdk),
  );

  const of = (sessionId: string, kind?: SessionUpdate['sessionUpdate']) =>
    updates
      .filter((item) => item.sessionId === sessionId)
      .map((item) => item.update)
      .filter((update) => kind === undefined || update.sessionUpdate === kind);

  const editor: Editor = {
    child,
    connection,
    stdoutLines,
    stderr: () => stderr,
    updates,
    permissions,
    writes,
    reads,
    terminals,
    of,
    toolContents: (sessionId) =>
      of(sessionId, 'tool_call_update').flatMap((update) =>
        update.sessionUpdate === 'tool_call_update' ? (update.content ?? []) : [],
      ),
    text: (sessionId) =>
      of(sessionId, 'agent_message_chunk')
        .map((update) =>
          update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
            ? update.content.text
            : '',
        )
        .join(''),
    initialize: () =>
      connection.agent.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        clientCapabilities: options.caps ?? {},
      }),
    newSession: async (mcpServers = []) => {
      const answer = await connection.agent.request('session/new', {
        cwd: options.project.dir,
        mcpServers: mcpServers as never,
      });
      return answer.sessionId;
    },
    prompt: async (sessionId, text) => {
      const answer = await connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text }],
      });
      return answer.stopReason;
    },
    close: async () => {
      child.stdin?.end();
      return exited;
    },
    exited,
  };
  return editor;
}
