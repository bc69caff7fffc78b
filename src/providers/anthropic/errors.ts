/**
 * What a failed Messages request surfaces as, with the quality of the Chat Completions provider's:
 * a cancel is an AbortError; a 401 names the key variable; a web page instead of the API says so
 * and names the base URL variable; "prompt is too long" is a ContextOverflowError (the agent
 * compacts and retries); an error that points at a tool by index (`tools.3.custom.input_schema…`)
 * names that tool's MCP server and tool. The caller redacts the message.
 */
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { CallbackFailure, cancelledError, rootMessage, streamFailure } from '../shared/errors.js';
import { ContextOverflowError, ProviderError, type ProviderTool } from '../types.js';

/** How Anthropic says the request does not fit: its own words for both cases. */
const OVERFLOW_WORDS =
  /prompt is too long|input length and `?max_tokens`? exceed context limit|exceeds? the context window|context window exceeded/i;

export interface FailureContext {
  signal: AbortSignal;
  baseURL: string;
  keyVariable: string;
  baseURLVariable: string;
  /** The tools as sent, by index: an error that points at one names it. */
  tools: readonly ProviderTool[];
}

export function mapFailure(error: unknown, context: FailureContext): unknown {
  if (error instanceof CallbackFailure) return error.error;
  if (context.signal.aborted || error instanceof APIUserAbortError) return cancelledError();
  if (error instanceof ProviderError) return error;
  if (error instanceof APIConnectionError) {
    return new ProviderError(`model request failed: cannot reach ${context.baseURL}: ${rootMessage(error)}`);
  }
  if (error instanceof APIError) return apiFailure(error, context);
  return streamFailure(error);
}

function apiFailure(error: APIError, context: FailureContext): ProviderError {
  const status = typeof error.status === 'number' ? error.status : undefined;
  let message = serverMessage(error);
  const type: string | undefined = typeof error.type === 'string' ? error.type : undefined;
  if (message.trimStart().startsWith('<')) {
    message = `the server answered with an HTML page, not the API — check ${context.baseURLVariable} (${context.baseURL})`;
  } else if (status === 401 || type === 'authentication_error') {
    message = `${message} — check ${context.keyVariable}`;
  } else if (status === 404 && !/model/i.test(message)) {
    // The SDK adds /v1/messages itself: a base URL ending in /v1 lands here.
    message = `${message} — check ${context.baseURLVariable} (${context.baseURL}; the address without /v1)`;
  } else {
    message += toolNote(message, context.tools);
  }
  const text =
    status === undefined
      ? `model request failed: ${message}${type ? ` (${type})` : ''}`
      : `model request failed: HTTP ${status}: ${message}`;
  const overflow =
    (status === undefined || status === 400 || status === 413) &&
    (OVERFLOW_WORDS.test(message) || status === 413 || type === 'request_too_large');
  return overflow ? new ContextOverflowError(text, status) : new ProviderError(text, status);
}

/** The API's own message (not the SDK's, which adds request ids and paths). */
function serverMessage(error: APIError): string {
  const body = error.error as { error?: { message?: unknown } } | undefined;
  const own = body?.error?.message;
  if (typeof own === 'string' && own !== '') return own;
  const status = typeof error.status === 'number' ? `${error.status} ` : '';
  return error.message.startsWith(status) ? error.message.slice(status.length) : error.message;
}

/** ` (tool "x" of MCP server "y")` when the message points at a sent tool by its index. */
export function toolNote(message: string, tools: readonly ProviderTool[]): string {
  const index = /\btools\.(\d+)\b/.exec(message)?.[1];
  const tool = index === undefined ? undefined : tools[Number(index)];
  if (!tool) return '';
  return tool.origin
    ? ` (tool ${JSON.stringify(tool.origin.tool)} of MCP server ${JSON.stringify(tool.origin.server)})`
    : ` (tool ${JSON.stringify(tool.name)})`;
}
