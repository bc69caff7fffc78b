/**
 * A task's input requests (`inputRequests` of a `tasks/get` answer: elicitation, sampling, roots)
 * answered by the same handlers that answer a server's own requests and a 2026 server's
 * `input_required` rounds (`client-handlers.ts` builds them). What the server sent is checked
 * against the SDK's schemas first: a malformed request is refused, never half-read.
 */
import {
  type CreateMessageRequest,
  type ElicitRequest,
  ProtocolError,
  ProtocolErrorCode,
  specTypeSchemas,
} from '@modelcontextprotocol/client';

/** Answers one embedded request (`{method, params}`) with its bare result, or rejects with why not. */
export type InputAnswerer = (method: string, params: unknown, signal: AbortSignal) => Promise<unknown>;

export interface InputHandlers {
  elicit(params: ElicitRequest['params'], signal: AbortSignal): Promise<unknown>;
  sample(params: CreateMessageRequest['params'], signal: AbortSignal): Promise<unknown>;
  roots(): unknown;
}

export function inputAnswerer(handlers: InputHandlers): InputAnswerer {
  return async (method, params, signal) => {
    switch (method) {
      case 'elicitation/create':
        return handlers.elicit(valid('ElicitRequestParams', method, params), signal);
      case 'sampling/createMessage':
        return handlers.sample(valid('CreateMessageRequestParams', method, params), signal);
      case 'roots/list':
        return handlers.roots();
      default:
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `GeekAgent cannot answer an input request of kind "${method}" (only elicitation/create, sampling/createMessage and roots/list)`,
        );
    }
  };
}

function valid<K extends 'ElicitRequestParams' | 'CreateMessageRequestParams'>(
  kind: K,
  method: string,
  params: unknown,
) {
  const checked = specTypeSchemas[kind]['~standard'].validate(params);
  if (checked.issues) {
    const first = checked.issues[0];
    const where = first?.path?.length ? ` at ${first.path.map(String).join('.')}` : '';
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `malformed ${method} input request${where}: ${first?.message ?? 'invalid'}`,
    );
  }
  return checked.value as K extends 'ElicitRequestParams'
    ? ElicitRequest['params']
    : CreateMessageRequest['params'];
}
