/**
 * Puts the client-side features (`client-features.ts`) on an SDK client: the capabilities, and
 * handlers for elicitation, sampling, roots and logging notifications. Part of the connection
 * layer (`connection-layer.ts`), loaded only when a run has a server.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { ClientFeatures, ElicitationSchema } from './client-features.js';
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

  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const params = request.params;
    if (params.mode === 'url') {
      throw new McpError(
        ErrorCode.InvalidParams,
        'GeekAgent does not open URLs for servers (URL-mode elicitation)',
      );
    }
    const answer = await features.elicitation.elicit(
      { server, message: params.message, schema: params.requestedSchema as ElicitationSchema },
      extra.signal,
    );
    return answer;
  });

  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) =>
    features.sampling.sample(server, request.params, extra.signal),
  );

  if (options.roots)
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: features.roots() }));

  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    const { level, logger, data } = notification.params;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    log.append(`[${level}]${logger ? ` ${logger}:` : ''} ${text}`);
  });
}
