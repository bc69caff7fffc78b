/**
 * Puts the client-side features (`client-features.ts`) on an SDK client: the capabilities, and
 * handlers for elicitation, sampling, roots and logging notifications. Part of the connection
 * layer (`connection-layer.ts`), loaded only when a run has a server. The same handlers answer a
 * 2025 server's requests and a 2026 server's `input_required` rounds (the SDK runs them for both).
 */
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { ClientFeatures, ElicitationSchema } from './client-features.js';
import { refusal } from './input-rounds.js';
import type { ServerLog } from './server-log.js';

export function configureClientFeatures(
  client: Client,
  server: string,
  features: ClientFeatures,
  log: ServerLog,
  options: { roots: boolean },
): void {
  client.registerCapabilities({
    elicitation: { form: { applyDefaults: true } },
    sampling: {},
    // Not declared for a `"roots": false` server: it keeps the directories it was configured with.
    ...(options.roots ? { roots: { listChanged: true } } : {}),
  });

  // What a handler throws is our refusal, marked so (input-rounds.ts): a 2026 request it ends
  // says the server asked and was not answered, rather than that the server failed.
  client.setRequestHandler('elicitation/create', async (request, ctx) => {
    const params = request.params;
    if (params.mode === 'url') {
      throw refusal(
        new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          'GeekAgent does not open URLs for servers (URL-mode elicitation)',
        ),
        'elicitation',
      );
    }
    const form = { server, message: params.message, schema: params.requestedSchema as ElicitationSchema };
    return features.elicitation.elicit(form, ctx.mcpReq.signal).catch((error: unknown) => {
      throw refusal(error, 'elicitation');
    });
  });

  client.setRequestHandler('sampling/createMessage', async (request, ctx) =>
    features.sampling.sample(server, request.params, ctx.mcpReq.signal).catch((error: unknown) => {
      throw refusal(error, 'sampling');
    }),
  );

  if (options.roots) client.setRequestHandler('roots/list', async () => ({ roots: features.roots() }));

  client.setNotificationHandler('notifications/message', (notification) => {
    const { level, logger, data } = notification.params;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    log.append(`[${level}]${logger ? ` ${logger}:` : ''} ${text}`);
  });
}
