/**
 * The client side of the protocol — what servers may ask of us: elicitation (form input),
 * sampling (a model completion), roots (the permission root), and logging notifications (to the
 * server's log). Every server-to-client request gets an answer; when the person or the mode
 * cannot give one, it is declined with a reason the server can show. The vocabulary lives here
 * (no SDK code is loaded by it); `client-handlers.ts` puts it on an SDK client.
 */
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/client';

export type FieldValue = string | number | boolean | string[];

export interface ElicitationRequest {
  server: string;
  message: string;
  /** The flat object schema of the form: properties with type, title, description, default, enum. */
  schema: ElicitationSchema;
}

export interface ElicitationSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
}

export type ElicitationAnswer =
  | { action: 'accept'; content: Record<string, FieldValue> }
  | { action: 'decline' }
  | { action: 'cancel' };

export interface ElicitationHandler {
  elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer>;
}

export type SamplingParams = CreateMessageRequest['params'];

export interface SamplingHandler {
  /** Resolves with the model's answer, or rejects (declined, no model) with a reason. */
  sample(server: string, params: SamplingParams, signal: AbortSignal): Promise<CreateMessageResult>;
}

export interface Root {
  uri: string;
  name: string;
}

export interface ClientFeatures {
  elicitation: ElicitationHandler;
  sampling: SamplingHandler;
  roots: () => Root[];
}

/** The values a form starts with: each field's default, where it has one. */
export function schemaDefaults(schema: ElicitationSchema): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const value = field.default;
    if (
      typeof value === 'string' ||
      typeof value === 'number' ||
      typeof value === 'boolean' ||
      (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    ) {
      values[name] = value as FieldValue;
    }
  }
  return values;
}

/** Where print mode and the `mcp` commands say what they refused a server (one line each, stderr). */
export type RefusalNote = (line: string) => void;

/** The server's question, for a one-line note (escaped by the writer). */
function quoted(message: string): string {
  return message.length > 200 ? `"${message.slice(0, 200)}…"` : `"${message}"`;
}

/**
 * Print mode: decline, unless `--accept-elicitation-defaults` (then accept with the defaults); either
 * way `note` says so, since nobody saw the question.
 */
export function nonInteractiveElicitation(acceptDefaults: boolean, note?: RefusalNote): ElicitationHandler {
  return {
    elicit: async (request) => {
      const asked = `MCP server ${request.server} asked for input (${quoted(request.message)})`;
      if (acceptDefaults) {
        note?.(`${asked}; answered with the form's defaults (--accept-elicitation-defaults)`);
        return { action: 'accept', content: schemaDefaults(request.schema) };
      }
      note?.(
        `${asked}; declined: nobody can answer in print mode (--accept-elicitation-defaults accepts a form's defaults; the TUI asks you)`,
      );
      return { action: 'decline' };
    },
  };
}

/** Print mode and the `mcp` commands: nobody can approve a sampling request. */
export function refusingSampling(note?: RefusalNote): SamplingHandler {
  return {
    sample: async (server) => {
      note?.(
        `MCP server ${server} asked for a model completion (sampling); refused: nobody can approve it in print mode (the TUI asks you)`,
      );
      // Only a connected server asks, so the SDK is loaded by then.
      const { ProtocolError, ProtocolErrorCode } = await import('@modelcontextprotocol/client');
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `sampling request from ${server} declined: GeekAgent is running non-interactively and nobody can approve it`,
      );
    },
  };
}

/** Refuses sampling without a note (ACP: the editor has no sampling question). */
export const refuseSampling: SamplingHandler = refusingSampling();
