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

/** Print mode: decline, unless `--accept-elicitation-defaults` (then accept with the defaults). */
export function nonInteractiveElicitation(acceptDefaults: boolean): ElicitationHandler {
  return {
    elicit: async (request) =>
      acceptDefaults ? { action: 'accept', content: schemaDefaults(request.schema) } : { action: 'decline' },
  };
}

/** Print mode and the `mcp` commands: nobody can approve a sampling request. */
export const refuseSampling: SamplingHandler = {
  sample: async (server) => {
    // Only a connected server asks, so the SDK is loaded by then.
    const { ProtocolError, ProtocolErrorCode } = await import('@modelcontextprotocol/client');
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `sampling request from ${server} declined: GeekAgent is running non-interactively and nobody can approve it`,
    );
  },
};
