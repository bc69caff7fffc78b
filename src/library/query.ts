/**
 * `query()`: one run of the agent in this process, its stream-json messages as an async iterable.
 * The app comes from the composition root the CLI uses (createApp), the turns run through the
 * stream-json face's loop (stream-json/run.ts) into a MessageQueue instead of stdout, and a call
 * that needs a question goes to `canUseTool`. Nothing of the TUI is imported.
 */

import path from 'node:path';
import type { App, AppOptions } from '../app/app.js';
import { createApp } from '../app/create-app.js';
import { nonInteractiveFeatures } from '../app/create-mcp.js';
import { describeStartupError } from '../app/errors.js';
import { decideFolderTrust } from '../boot/folder-trust.js';
import type { CodeHook } from '../hooks/engine.js';
import { ProcessGroupTracker } from '../process/group-tracker.js';
import { sessionStart } from '../sessions/manager.js';
import { runStreamJson } from '../stream-json/run.js';
import { untrustedNotice } from '../trust/describe.js';
import { CanUseToolApprover } from './approver.js';
import { MessageQueue } from './message-queue.js';
import type {
  HookEventName,
  McpServerConfig,
  McpServerInstance,
  Query,
  QueryMessage,
  QueryOptions,
  QueryParams,
  UserInputMessage,
} from './types.js';

/** Claude Code's mode names to GeekAgent's (which are taken as they are too). */
const MODES: Record<string, string> = { acceptEdits: 'accept-edits', bypassPermissions: 'bypass' };

export function query(params: QueryParams): Query {
  const options = params.options ?? {};
  const queue = new MessageQueue<QueryMessage>();
  // The run's own signal: the caller's abortController, or the caller leaving the iteration early.
  const stop = new AbortController();
  const external = options.abortController?.signal;
  if (external?.aborted) stop.abort();
  else external?.addEventListener('abort', () => stop.abort(), { once: true });
  let cancelTurn: (() => void) | undefined;
  const running = run(params, options, queue, stop.signal, (cancel) => {
    cancelTurn = cancel;
  }).then(
    () => queue.end(),
    (error: unknown) => queue.fail(new Error(describeStartupError(error))),
  );
  const messages = (async function* () {
    try {
      for (;;) {
        const message = await queue.next();
        if (message === undefined) return;
        yield message;
      }
    } finally {
      // Left early (break, return, throw): the turn is cancelled and the app shut down first.
      stop.abort();
      await running;
    }
  })();
  return Object.assign(messages, {
    interrupt: async () => {
      cancelTurn?.();
    },
  });
}

async function run(
  params: QueryParams,
  options: QueryOptions,
  queue: MessageQueue<QueryMessage>,
  signal: AbortSignal,
  onInterruptible: (cancel: () => void) => void,
): Promise<void> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const env = options.env ?? process.env;
  const tracker = new ProcessGroupTracker();
  let app: App | undefined;
  try {
    const trust = await decideFolderTrust({ projectDir: cwd, env, flag: options.trust === true });
    const ignored = untrustedNotice(trust);
    app = await createApp({
      ...appOptions(cwd, env, options),
      trust,
      approver: new CanUseToolApprover(options.canUseTool),
      tracker,
      features: ({ root }) => nonInteractiveFeatures(root, false),
    });
    app.provider.prepare?.();
    const { prompt } = params;
    await runStreamJson(
      app,
      {
        lines: queue,
        notices: [...(ignored ? [ignored] : []), ...app.notices],
        partial: options.includePartialMessages === true,
        onInterruptible,
        ...(typeof prompt === 'string'
          ? { prompt }
          : { input: { lines: inputLines(prompt, signal), label: 'prompt message' } }),
      },
      signal,
    );
  } finally {
    await app?.shutdown();
    // Normally nothing is left; a server that outlived its shutdown is killed.
    tracker.killAll();
    tracker.dispose();
  }
}

function appOptions(
  cwd: string,
  env: NodeJS.ProcessEnv,
  options: QueryOptions,
): Omit<AppOptions, 'trust' | 'approver' | 'tracker'> {
  const { servers, inProcess } = splitServers(options);
  const hasServers = Object.keys(servers).length > 0;
  return {
    cwd,
    env,
    model: options.model,
    baseURL: options.baseURL,
    provider: options.provider,
    allow: options.allowedTools,
    deny: options.disallowedTools,
    approvalMode: options.permissionMode && (MODES[options.permissionMode] ?? options.permissionMode),
    session: sessionStart(options),
    hooks: codeHooks(options),
    ...(inProcess ? { inProcessMcp: inProcess } : {}),
    ...(hasServers || options.strictMcpConfig
      ? {
          mcpConfig: {
            values: hasServers ? [JSON.stringify({ mcpServers: servers })] : [],
            strict: options.strictMcpConfig === true,
          },
        }
      : {}),
  };
}

/** The `mcpServers` option: config entries (passed as `--mcp-config` JSON) and in-process servers. */
function splitServers(options: QueryOptions): {
  servers: Record<string, McpServerConfig>;
  inProcess?: Record<string, McpServerInstance>;
} {
  const servers: Record<string, McpServerConfig> = {};
  const inProcess: Record<string, McpServerInstance> = {};
  for (const [name, entry] of Object.entries(options.mcpServers ?? {})) {
    if (entry.type !== 'sdk') servers[name] = entry;
    else if (typeof entry.instance?.connect === 'function') inProcess[name] = entry.instance;
    else
      throw new Error(
        `mcpServers.${name}: an entry of type "sdk" needs an instance, an MCP SDK server object (McpServer)`,
      );
  }
  return { servers, ...(Object.keys(inProcess).length > 0 ? { inProcess } : {}) };
}

/** The `hooks` option as the hooks engine's code hooks. */
function codeHooks(options: QueryOptions): CodeHook[] {
  const hooks: CodeHook[] = [];
  for (const [event, matchers] of Object.entries(options.hooks ?? {}))
    for (const matcher of matchers ?? [])
      for (const hook of matcher.hooks)
        hooks.push({
          event: event as HookEventName,
          matcher: matcher.matcher ?? '',
          ...(matcher.timeout !== undefined ? { timeoutSeconds: matcher.timeout } : {}),
          callback: (input, signal) =>
            hook(input, typeof input.tool_use_id === 'string' ? input.tool_use_id : undefined, { signal }),
        });
  return hooks;
}

/** The caller's user messages as stream-json input lines; ends when they end or the run stops. */
async function* inputLines(
  messages: AsyncIterable<UserInputMessage>,
  signal: AbortSignal,
): AsyncGenerator<string> {
  const iterator = messages[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await untilAborted(iterator.next(), signal);
      if (next === undefined || next.done) return;
      yield JSON.stringify(next.value);
    }
  } finally {
    void iterator.return?.()?.catch(() => {});
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const abort = () => resolve(undefined);
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}
