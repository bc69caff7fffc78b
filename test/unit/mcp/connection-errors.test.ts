import { describe, expect, it } from 'vitest';
import type { McpServerDefinition } from '../../../src/mcp/config.js';
import { DeadlineError, startupFailureReason } from '../../../src/mcp/connection-errors.js';
import * as sdk from '../../../src/mcp/connection-sdk.js';
import { serverRedactor } from '../../../src/mcp/redact.js';

const definition = {
  name: 'lsp',
  source: 'project',
  file: '/p/.geekagent/mcp.json',
  transport: 'stdio',
  command: 'cclsp',
  args: [],
  env: {},
  cwd: '/p',
  timeoutMs: 60_000,
  startupTimeoutMs: 30_000,
  disabled: false,
  maxResultTokens: 25_000,
} satisfies McpServerDefinition;
const timedOut = new sdk.SdkError(sdk.SdkErrorCode.RequestTimeout, 'Request timed out');
const context = (exitReason?: string, lastStderr?: string) => ({
  definition,
  exitReason,
  target: 'cclsp',
  lastStderr,
});

describe('startupFailureReason', () => {
  it('a timeout with the server still running is the reason, whatever our close made it do', () => {
    for (const error of [timedOut, new DeadlineError('no answer within 30 s')]) {
      expect(
        startupFailureReason(
          sdk,
          { error, stage: 'initialize', exitedFirst: false },
          context('server exited with code 0', '}'),
        ),
      ).toBe(
        'did not answer initialize within 30 s (raise "startupTimeout" for lsp in /p/.geekagent/mcp.json if it needs longer); the server\'s last stderr line: "}"',
      );
    }
  });

  it('a tools/list timeout names tools/list and the per-request timeout', () => {
    expect(
      startupFailureReason(sdk, { error: timedOut, stage: 'listing', exitedFirst: false }, context()),
    ).toBe(
      'did not answer tools/list within 60 s (raise "timeout" for lsp in /p/.geekagent/mcp.json if it needs longer)',
    );
  });

  it('a server that exited before the deadline is reported by its exit', () => {
    expect(
      startupFailureReason(
        sdk,
        { error: timedOut, stage: 'initialize', exitedFirst: true },
        context('server exited with code 2', 'boom'),
      ),
    ).toBe('server exited with code 2 during start-up: boom');
  });

  it('an invalid result quoted in part is redacted before the cut: no prefix of a secret is left', () => {
    const secret = 'cred-s3cret-4242-abcdef';
    const redact = serverRedactor({ ...definition, fromEnv: [{ variable: 'UPSTREAM', value: secret }] });
    // The secret straddles the 300th character of the quoted message.
    const error = new sdk.SdkError(sdk.SdkErrorCode.InvalidResult, `${'x'.repeat(290)} ${secret} rest`);
    const reason = startupFailureReason(
      sdk,
      { error, stage: 'listing', exitedFirst: false },
      { ...context(), redact },
    );
    expect(reason).toContain(`${'x'.repeat(290)} \${UPSTREAM}`);
    expect(reason).not.toContain('cred-');
  });
});
