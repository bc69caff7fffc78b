/**
 * Multi round-trip requests (MCP 2026-07-28): a server answers `tools/call`, `prompts/get` or
 * `resources/read` with `input_required` and the elicitation, sampling and roots requests it needs;
 * the SDK's driver answers them through the very handlers that answer a 2025 server's requests
 * (client-handlers.ts: the TUI form, the ACP permission, print mode's refusal) and retries with the
 * answers and the echoed `requestState`. This module owns the cap on rounds and what a failed
 * round says: a server that never stops asking, an answer GeekAgent or the person did not give.
 * SDK-free (the SDK's error classes come in as `sdk`).
 */
import { errorMessage } from '../util/errors.js';
import { visibleLine } from '../util/terminal-text.js';
import type { SdkErrors } from './sdk-errors.js';

/**
 * Rounds of answers one request may take before GeekAgent stops it (the SDK's default is 10). A
 * real server asks once or twice (a form, then a confirmation); past that it is looping.
 */
export const MAX_INPUT_ROUNDS = 8;

/** The SDK client's `inputRequired` option: answer input requests ourselves, at most this often. */
export const INPUT_REQUIRED_OPTIONS = { autoFulfill: true, maxRounds: MAX_INPUT_ROUNDS } as const;

/**
 * The progress the SDK's driver reports itself before each round (`Fulfilling input required by
 * 'tools/call' (round 1)`): not the server's, and the person sees the question anyway, so it is not
 * shown. The SDK marks it no other way than by its text (no token, no total).
 */
export function isOwnRoundProgress(progress: { total?: number; message?: string }): boolean {
  return (
    progress.total === undefined &&
    typeof progress.message === 'string' &&
    /^Fulfilling input required by '[^']*' \(round \d+\)$/.test(progress.message)
  );
}

export type AskedFeature = 'elicitation' | 'sampling' | 'roots';

/** Marks an error thrown by our own handler (not the server's answer); never sent on the wire. */
const REFUSED = Symbol('geekagent.refusedInputRequest');

type Marked = Error & { [REFUSED]?: AskedFeature };

/**
 * An answer our handler did not give (declined sampling, a model that failed, a URL form): marked
 * so that when it ends a 2026 request — the driver rethrows it as the call's error — the message
 * says the server asked and GeekAgent did not answer, not that the server failed. A 2025 server
 * gets the same error as its request's JSON-RPC error (the mark is not serialised).
 */
export function refusal(error: unknown, feature: AskedFeature): unknown {
  if (error instanceof Error) (error as Marked)[REFUSED] = feature;
  return error;
}

function refusedFeature(error: unknown): AskedFeature | undefined {
  return error instanceof Error ? (error as Marked)[REFUSED] : undefined;
}

const WHAT: Record<AskedFeature, string> = {
  elicitation: 'input (elicitation)',
  sampling: 'a model completion (sampling)',
  roots: 'the roots (roots/list)',
};

const METHOD_FEATURE: Record<string, AskedFeature> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/**
 * What a request that failed during its input rounds says, or undefined when the failure is not
 * about input rounds. `call` is the request as the person reads it (`tools/call "ask_name"`).
 */
export function inputRoundFailure(
  sdk: SdkErrors,
  error: unknown,
  server: string,
  call: string,
  file: string,
): string | undefined {
  const { SdkError, SdkErrorCode } = sdk;
  if (error instanceof SdkError && error.code === SdkErrorCode.InputRequiredRoundsExceeded) {
    const data = error.data as { rounds?: unknown; lastResult?: { inputRequests?: unknown } } | undefined;
    const rounds = typeof data?.rounds === 'number' ? data.rounds : MAX_INPUT_ROUNDS;
    const last = describeAsks(data?.lastResult?.inputRequests);
    return (
      `MCP server ${server} still asked for input after ${rounds} rounds of answers during ${call}` +
      `${last ? ` (it last asked for ${last})` : ''}; GeekAgent stopped the request there ` +
      `(at most ${rounds} rounds per request: the server is likely looping — see its log)`
    );
  }
  const feature = refusedFeature(error);
  if (feature)
    return `MCP server ${server} asked for ${WHAT[feature]} during ${call}, and it was not given: ${errorMessage(error)}`;
  // An input request we have no handler for: roots of a `"roots": false` server.
  if (error instanceof SdkError && error.code === SdkErrorCode.CapabilityNotSupported) {
    const method = (error.data as { method?: unknown } | undefined)?.method;
    const asked = typeof method === 'string' ? METHOD_FEATURE[method] : undefined;
    if (asked === 'roots')
      return `MCP server ${server} asked for its roots during ${call}, but it has "roots": false in ${file} (remove that to offer it the project folder)`;
    if (asked)
      return `MCP server ${server} asked for ${WHAT[asked]} during ${call}, which GeekAgent does not offer`;
  }
  return undefined;
}

/** The last round's requests, for the person: `a form "Question 9?"`, `a model completion`. */
function describeAsks(inputRequests: unknown): string | undefined {
  if (typeof inputRequests !== 'object' || inputRequests === null) return undefined;
  const asks = Object.values(inputRequests).map((entry) => describeAsk(entry));
  if (asks.length === 0) return undefined;
  const shown = asks.slice(0, 3).join(', ');
  return asks.length > 3 ? `${shown} and ${asks.length - 3} more` : shown;
}

function describeAsk(entry: unknown): string {
  const { method, params } = (entry ?? {}) as { method?: unknown; params?: { message?: unknown } };
  const feature = typeof method === 'string' ? METHOD_FEATURE[method] : undefined;
  if (feature === 'elicitation') {
    const message = typeof params?.message === 'string' ? params.message : '';
    // The server's words: one escaped line, bounded.
    const shown = visibleLine(message.length > 120 ? `${message.slice(0, 120)}…` : message);
    return shown ? `a form "${shown}"` : 'a form';
  }
  if (feature) return WHAT[feature];
  return `"${visibleLine(String(method).slice(0, 60))}"`;
}
