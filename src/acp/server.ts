/**
 * `geekagent acp`: GeekAgent as an Agent Client Protocol agent on a byte stream pair (stdio), on
 * the official SDK's agent side. Owns the connection: `initialize` (version, capabilities, how to
 * authenticate), the sessions by id (new, load, resume, fork, list, prompt, cancel, close), and
 * their end when the client goes away. Stdout carries only protocol messages: nothing here writes
 * anywhere else but stderr.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type AgentContext,
  agent,
  type ClientCapabilities,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
} from '@agentclientprotocol/sdk/unstable';
import { userStateDir } from '../config/paths.js';
import { PACKAGE_VERSION } from '../config/version.js';
import type { ProcessGroupTracker } from '../process/group-tracker.js';
import { SessionError, SessionNotFoundError } from '../sessions/files.js';
import { SessionStore } from '../sessions/store.js';
import { errorMessage } from '../util/errors.js';
import { listSessions } from './list.js';
import { AcpSession, type SessionParams } from './session.js';

export interface AcpServerOptions {
  input: ReadableStream<Uint8Array>;
  output: WritableStream<Uint8Array>;
  env: NodeJS.ProcessEnv;
  tracker: ProcessGroupTracker;
  /** Logs (never stdout). */
  log: (line: string) => void;
}

export interface AcpServer {
  /** Resolves when the client closed the connection (stdin ended) and every session is shut down. */
  readonly done: Promise<void>;
  /** Ends every session (a signal); the connection closes with them. */
  shutdown(): Promise<void>;
}

export function startAcpServer(options: AcpServerOptions): AcpServer {
  const sessions = new Map<string, AcpSession>();
  /** Sessions still being built: shut down too if the client leaves meanwhile. */
  const opening = new Set<Promise<AcpSession | undefined>>();
  let caps: ClientCapabilities | undefined;

  const sessionFor = (id: string): AcpSession => {
    const session = sessions.get(id);
    if (!session) throw RequestError.sessionNotFound(id);
    return session;
  };

  const open = async (client: AgentContext, params: SessionParams): Promise<AcpSession> => {
    if (!path.isAbsolute(params.cwd))
      throw RequestError.invalidParams({ cwd: params.cwd }, 'cwd must be an absolute path');
    await checkDirectories(params.additionalDirectories ?? []);
    const building = AcpSession.open(params, { client, caps, env: options.env, tracker: options.tracker });
    const tracked = building.catch(() => undefined);
    opening.add(tracked);
    try {
      const session = await building;
      sessions
        .get(session.sessionId)
        ?.close()
        .catch(() => undefined);
      sessions.set(session.sessionId, session);
      return session;
    } catch (error) {
      if (error instanceof RequestError) throw error;
      // The SDK's "not found": a client starts afresh on it.
      if (error instanceof SessionNotFoundError) throw RequestError.sessionNotFound(error.id);
      // A session id that cannot be one is the client's to fix.
      if (error instanceof SessionError) throw RequestError.invalidParams({ cwd: params.cwd }, error.message);
      throw RequestError.internalError({ cwd: params.cwd }, errorMessage(error));
    } finally {
      opening.delete(tracked);
    }
  };

  const app = agent({ name: 'geekagent' })
    .onRequest('initialize', ({ params }) => {
      caps = params.clientCapabilities;
      return {
        // The one version this agent speaks: a client that asked for another decides whether to go on.
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, resume: {}, close: {}, fork: {}, additionalDirectories: {} },
        },
        authMethods: [
          {
            id: 'model-api-key',
            name: 'Model API key',
            description:
              'Set the key of your model provider in the agent environment (OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, per GEEKAGENT_PROVIDER), or name a model in ~/.geekagent/models.json',
          },
        ],
        agentInfo: { name: 'geekagent', title: 'GeekAgent', version: PACKAGE_VERSION },
      };
    })
    // The key comes from the environment: nothing to do, the next prompt says if it is missing.
    .onRequest('authenticate', () => ({}))
    .onRequest('session/new', async ({ params, client }) => {
      const session = await open(client, {
        cwd: params.cwd,
        mcpServers: params.mcpServers,
        start: { kind: 'new' },
        additionalDirectories: params.additionalDirectories,
      });
      session.announce();
      return { sessionId: session.sessionId, ...(await sessionSettings(session)) };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const session = await open(client, {
        cwd: params.cwd,
        mcpServers: params.mcpServers,
        start: { kind: 'resume', id: params.sessionId },
        additionalDirectories: params.additionalDirectories,
      });
      await session.replay();
      session.announce();
      return sessionSettings(session);
    })
    // As load, without the conversation sent again (the client still shows it).
    .onRequest('session/resume', async ({ params, client }) => {
      const session = await open(client, {
        cwd: params.cwd,
        mcpServers: params.mcpServers ?? [],
        start: { kind: 'resume', id: params.sessionId },
        additionalDirectories: params.additionalDirectories,
      });
      session.announce();
      return sessionSettings(session);
    })
    // A copy of a saved session under a new id, opened; the source stays as it was.
    .onRequest('session/fork', async ({ params, client }) => {
      if (!path.isAbsolute(params.cwd))
        throw RequestError.invalidParams({ cwd: params.cwd }, 'cwd must be an absolute path');
      // Checked before the copy is made: a refused fork leaves no copy behind.
      await checkDirectories(params.additionalDirectories ?? []);
      const store = new SessionStore(params.cwd, userStateDir(options.env));
      const id = await store.fork(params.sessionId).catch((error: unknown) => {
        if (error instanceof SessionNotFoundError) throw RequestError.sessionNotFound(error.id);
        if (error instanceof SessionError)
          throw RequestError.invalidParams({ sessionId: params.sessionId }, error.message);
        throw RequestError.internalError({ sessionId: params.sessionId }, errorMessage(error));
      });
      const session = await open(client, {
        cwd: params.cwd,
        mcpServers: params.mcpServers ?? [],
        start: { kind: 'resume', id },
        additionalDirectories: params.additionalDirectories,
      });
      session.announce();
      return { sessionId: session.sessionId, ...(await sessionSettings(session)) };
    })
    .onRequest('session/list', async ({ params }) => {
      if (params.cwd && !path.isAbsolute(params.cwd))
        throw RequestError.invalidParams({ cwd: params.cwd }, 'cwd must be an absolute path');
      return listSessions(userStateDir(options.env), params.cwd, params.cursor);
    })
    // The turn is cancelled, the servers stopped, the file closed; the session stays saved.
    .onRequest('session/close', async ({ params }) => {
      const session = sessionFor(params.sessionId);
      sessions.delete(params.sessionId);
      await session.close();
      return {};
    })
    .onRequest('session/prompt', async ({ params }) => ({
      stopReason: await sessionFor(params.sessionId).prompt(params.prompt),
    }))
    .onRequest('session/set_mode', ({ params }) => {
      sessionFor(params.sessionId).setMode(params.modeId);
      return {};
    })
    .onRequest('session/set_config_option', async ({ params }) => ({
      configOptions: await sessionFor(params.sessionId).setConfigOption(params.configId, params.value),
    }))
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  const connection = app.connect(ndJsonStream(options.output, options.input));
  let closing: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    closing ??= (async () => {
      const late = await Promise.all(opening);
      const all = [...sessions.values(), ...late.filter((session) => session !== undefined)];
      sessions.clear();
      await Promise.allSettled(all.map((session) => session.close()));
    })();
    return closing;
  };
  const done = connection.closed
    .catch((error: unknown) => options.log(`geekagent acp: connection closed: ${errorMessage(error)}`))
    .then(shutdown);
  return {
    done,
    shutdown: async () => {
      await shutdown();
      connection.close();
    },
  };
}

/** Each additional directory is an absolute path to a folder (else the client's to fix). */
async function checkDirectories(directories: readonly string[]): Promise<void> {
  for (const directory of directories) {
    if (!path.isAbsolute(directory))
      throw RequestError.invalidParams(
        { additionalDirectories: directories },
        `not an absolute path: ${directory}`,
      );
    const info = await stat(directory).catch(() => undefined);
    if (!info?.isDirectory())
      throw RequestError.invalidParams({ additionalDirectories: directories }, `not a folder: ${directory}`);
  }
}

/** What every answer that opens a session carries: its config options and modes. */
async function sessionSettings(session: AcpSession) {
  return { configOptions: await session.configOptions(), modes: session.modes() };
}
