/**
 * Puts the client-side features (`client-features.ts`) on an SDK client: the capabilities, and
 * handlers for elicitation, sampling, roots and logging notifications. Part of the connection
 * layer (`connection-layer.ts`), loaded only when a run has a server. The same handlers answer a
 * 2025 server's requests, a 2026 server's `input_required` rounds (the SDK runs them for both) and
 * a task's input requests (`tasks/input.ts`, through the `InputAnswerer` returned here).
 */
import type { Client, CreateMessageRequest, ElicitRequest } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { ClientFeatures, ElicitationSchema } from './client-features.js';
import { refusal } from './input-rounds.js';
import type { ServerLog } from './server-log.js';
import { type InputAnswerer, inputAnswerer } from './tasks/input.js';
import { TASKS_EXTENSION } from './tasks/task-results.js';

export function configureClientFeatures(
  client: Client,
  server: string,
  features: ClientFeatures,
  log: ServerLog,
  options: { roots: boolean },
): InputAnswerer {
  client.registerCapabilities({
    elicitation: { form: { applyDefaults: true } },
    sampling: {},
    // Not declared for a `"roots": false` server: it keeps the directories it was configured with.
    ...(options.roots ? { roots: { listChanged: true } } : {}),
    // A 2026 server may turn a long call into a task (tasks/): only 2026-07-28 defines the
    // extension; a 2025 server's own tasks are the core `tasks` capability, never declared.
    extensions: { [TASKS_EXTENSION]: {} },
  });

  // What a handler throws is our refusal, marked so (input-rounds.ts): a 2026 request it ends
  // says the server asked and was not answered, rather than that the server failed.
  const elicit = async (params: ElicitRequest['params'], signal: AbortSignal) => {
    if (params.mode === 'url') {
      throw refusal(
        new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          'GeekAgent does not open URLs for servers (URL-mode elicitation)',
        ),
        'elicitation',
      );
    }
    return features.elicitation
      .elicit(
        { server, message: params.message, schema: params.requestedSchema as ElicitationSchema },
        signal,
      )
      .catch((error: unknown) => {
        throw refusal(error, 'elicitation');
      });
  };
  const sample = (params: CreateMessageRequest['params'], signal: AbortSignal) =>
    features.sampling.sample(server, params, signal).catch((error: unknown) => {
      throw refusal(error, 'sampling');
    });
  const roots = () => ({ roots: options.roots ? features.roots() : [] });

  client.setRequestHandler('elicitation/create', (request, ctx) => elicit(request.params, ctx.mcpReq.signal));
  client.setRequestHandler('sampling/createMessage', (request, ctx) =>
    sample(request.params, ctx.mcpReq.signal),
  );
  if (options.roots) client.setRequestHandler('roots/list', async () => roots());

  client.setNotificationHandler('notifications/message', (notification) => {
    const { level, logger, data } = notification.params;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    log.append(`[${level}]${logger ? ` ${logger}:` : ''} ${text}`);
  });
  return inputAnswerer({ elicit, sample, roots });
}
