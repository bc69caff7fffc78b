/**
 * What a 2026 request that failed during its input rounds says (the end-to-end tests drive the
 * common cases through the built CLI): the server's last questions escaped and bounded, our own
 * refusal told apart from the server's error, an input request nobody can answer, and the SDK's
 * own round note told apart from a server's progress.
 */
import { describe, expect, it } from 'vitest';
import * as sdk from '../../../src/mcp/connection-sdk.js';
import { inputRoundFailure, isOwnRoundProgress, refusal } from '../../../src/mcp/input-rounds.js';

const FILE = '/p/.geekagent/mcp.json';
const fail = (error: unknown) => inputRoundFailure(sdk, error, 'm', 'tools/call "t"', FILE);

const exceeded = (inputRequests: Record<string, unknown>) =>
  new sdk.SdkError(sdk.SdkErrorCode.InputRequiredRoundsExceeded, 'rounds', {
    rounds: 8,
    lastResult: { inputRequests },
  });

describe('inputRoundFailure', () => {
  it('a server past the cap: its last questions, escaped, at most three named', () => {
    const asks = {
      a: { method: 'elicitation/create', params: { message: 'Name?\u001b[2J\nnow' } },
      b: { method: 'sampling/createMessage', params: {} },
      c: { method: 'roots/list' },
      d: { method: 'elicitation/create', params: { message: 'x'.repeat(300) } },
      e: { method: 'elicitation/create', params: { message: 'more' } },
    };
    const text = fail(exceeded(asks));
    expect(text).toBe(
      'MCP server m still asked for input after 8 rounds of answers during tools/call "t" ' +
        '(it last asked for a form "Name?^[[2J^Jnow", a model completion (sampling), the roots (roots/list) and 2 more); ' +
        'GeekAgent stopped the request there (at most 8 rounds per request: the server is likely looping — see its log)',
    );
    expect(
      fail(exceeded({ q: { method: 'elicitation/create', params: { message: 'y'.repeat(300) } } })),
    ).toContain(`a form "${'y'.repeat(120)}…"`);
  });

  it('our refusal says the server asked and was not answered; the server’s own error is not ours', () => {
    const declined = new sdk.ProtocolError(sdk.ProtocolErrorCode.InvalidRequest, 'declined by the user');
    expect(fail(refusal(declined, 'sampling'))).toBe(
      'MCP server m asked for a model completion (sampling) during tools/call "t", and it was not given: declined by the user',
    );
    // Still the same ProtocolError with its code: a 2025 server gets it as the JSON-RPC error.
    expect(refusal(declined, 'sampling')).toBe(declined);
    expect(declined).toBeInstanceOf(sdk.ProtocolError);
    expect(declined.code).toBe(sdk.ProtocolErrorCode.InvalidRequest);
    expect(fail(new sdk.ProtocolError(sdk.ProtocolErrorCode.InternalError, 'server broke'))).toBeUndefined();
  });

  it('an input request without a handler: roots of a "roots": false server name the setting', () => {
    const noHandler = (method: string) =>
      new sdk.SdkError(sdk.SdkErrorCode.CapabilityNotSupported, 'no handler', { key: 'k', method });
    expect(fail(noHandler('roots/list'))).toBe(
      `MCP server m asked for its roots during tools/call "t", but it has "roots": false in ${FILE} (remove that to offer it the project folder)`,
    );
    // The same code for a capability the server lacks is not about input rounds.
    expect(
      fail(new sdk.SdkError(sdk.SdkErrorCode.CapabilityNotSupported, 'Server does not support tools')),
    ).toBe(undefined);
  });
});

describe('isOwnRoundProgress', () => {
  it('is the SDK driver’s note only', () => {
    expect(isOwnRoundProgress({ message: "Fulfilling input required by 'tools/call' (round 3)" })).toBe(true);
    expect(isOwnRoundProgress({ message: 'step 1', total: 3 })).toBe(false);
    expect(
      isOwnRoundProgress({ message: "Fulfilling input required by 'tools/call' (round 3)", total: 9 }),
    ).toBe(false);
    expect(isOwnRoundProgress({})).toBe(false);
  });
});
