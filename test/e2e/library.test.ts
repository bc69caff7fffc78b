/**
 * The library (`import { query } from "geekagent"`), in this process against the fake model: its
 * messages are the stream-json output's (the CLI's, for the same script), `canUseTool` answers the
 * questions (allow runs the call, deny refuses it with the reason), a multi-turn session takes its
 * turns from an async iterable, and `interrupt()` / `abortController` cancel a turn.
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { query } from '../../src/library/index.js';
import type { QueryMessage, UserInputMessage } from '../../src/library/types.js';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, type Project, runCli, testEnv } from './harness.js';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
const user = (content: string): UserInputMessage => ({ type: 'user', message: { role: 'user', content } });

async function collect(messages: AsyncIterable<QueryMessage>): Promise<QueryMessage[]> {
  const all: QueryMessage[] = [];
  for await (const message of messages) all.push(message);
  return all;
}

/** What a message is, without what differs between any two runs (ids, times). */
function shape(message: Record<string, unknown>): unknown {
  const inner = message.message as Record<string, unknown> | undefined;
  return {
    type: message.type,
    subtype: message.subtype,
    keys: Object.keys(message).sort(),
    ...(inner ? { content: inner.content, innerKeys: Object.keys(inner).sort() } : {}),
  };
}

describe('query() from the library', () => {
  let project: Project;
  let fake: FakeModel;
  const env = () => testEnv({ project, modelUrl: fake.url });

  beforeEach(async () => {
    project = await createProject();
    fake = await startFakeModel();
  });
  afterEach(async () => {
    await fake.close();
    await project.cleanup();
  });

  it('yields the messages the CLI writes for the same turn, canUseTool allowing the call', async () => {
    const script = () =>
      fake.push(
        { toolCalls: [call('write', { path: 'yes.txt', content: 'allowed\n' })] },
        { text: 'wrote it' },
      );
    script();
    const asked: Array<[string, unknown]> = [];
    const messages = await collect(
      query({
        prompt: 'write yes.txt',
        options: {
          cwd: project.dir,
          env: env(),
          trust: true,
          canUseTool: (name, input) => {
            asked.push([name, input]);
            return { behavior: 'allow' };
          },
        },
      }),
    );
    expect(asked).toEqual([['write', { path: 'yes.txt', content: 'allowed\n' }]]);
    expect(await readFile(path.join(project.dir, 'yes.txt'), 'utf8')).toBe('allowed\n');
    expect(messages.map((message) => message.type)).toEqual([
      'system',
      'assistant',
      'user',
      'assistant',
      'result',
    ]);
    expect(messages[0]).toMatchObject({ subtype: 'init', cwd: project.dir, model: 'fake-model' });
    const result = messages.at(-1);
    expect(result).toMatchObject({ type: 'result', subtype: 'success', is_error: false, result: 'wrote it' });
    // One session id throughout, as in the CLI's lines.
    expect(new Set(messages.map((message) => message.session_id)).size).toBe(1);

    // The CLI, same script, same folder: the same messages.
    script();
    await rm(path.join(project.dir, 'yes.txt'));
    const cli = await runCli(['-p', 'write yes.txt', '--output-format', 'stream-json', '--allow', 'write'], {
      project,
      modelUrl: fake.url,
    });
    expect(cli.code, cli.stderr).toBe(0);
    const lines = cli.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const without = (list: Array<Record<string, unknown>>) =>
      list.map((message) => {
        const { decision: _decision, ...rest } = message;
        return shape(rest);
      });
    // The decision differs (asked and approved here, allowed by --allow there); nothing else does.
    expect(without(messages as Array<Record<string, unknown>>).map(withoutIds)).toEqual(
      without(lines).map(withoutIds),
    );
    expect(messages[2]).toMatchObject({ decision: 'approved' });
  });

  it('refuses the call canUseTool denies, with its reason, and reports the denial', async () => {
    fake.push(
      { toolCalls: [call('write', { path: 'no.txt', content: 'denied\n' })] },
      { text: 'was refused' },
    );
    const messages = await collect(
      query({
        prompt: 'write no.txt',
        options: {
          cwd: project.dir,
          env: env(),
          trust: true,
          canUseTool: () => ({ behavior: 'deny', message: 'not today' }),
        },
      }),
    );
    expect(existsSync(path.join(project.dir, 'no.txt'))).toBe(false);
    const refused = messages.find((message) => message.type === 'user');
    expect(refused).toMatchObject({
      message: { content: [{ type: 'tool_result', is_error: true }] },
      tool_use_result: expect.stringContaining('not today'),
    });
    // The model read the refusal and its reason.
    expect(JSON.stringify(fake.requests[1]?.body.messages)).toContain('not today');
    expect(messages.at(-1)).toMatchObject({
      type: 'result',
      result: 'was refused',
      permission_denials: [{ tool_name: 'write', tool_input: { path: 'no.txt', content: 'denied\n' } }],
    });
  });

  it('refuses a call that needs a question when there is no canUseTool, naming the options', async () => {
    fake.push({ toolCalls: [call('write', { path: 'no.txt', content: 'x' })] }, { text: 'ok' });
    const messages = await collect(
      query({ prompt: 'write', options: { cwd: project.dir, env: env(), trust: true } }),
    );
    expect(existsSync(path.join(project.dir, 'no.txt'))).toBe(false);
    expect(messages.find((message) => message.type === 'user')).toMatchObject({
      tool_use_result: expect.stringContaining("pass canUseTool or allowedTools: ['write']"),
    });
  });

  it('runs allowedTools unasked and takes a multi-turn session from an async iterable', async () => {
    fake.push({ toolCalls: [call('write', { path: 'a.txt', content: 'A\n' })] }, { text: 'first done' });
    fake.push({ text: 'second done' });
    let second: (() => void) | undefined;
    const secondAllowed = new Promise<void>((resolve) => {
      second = resolve;
    });
    async function* prompts(): AsyncGenerator<UserInputMessage> {
      yield user('first question');
      // The next message only once the first turn's result has been read: a live conversation.
      await secondAllowed;
      yield { type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'second question' }] } };
    }
    const results: unknown[] = [];
    for await (const message of query({
      prompt: prompts(),
      options: {
        cwd: project.dir,
        env: env(),
        trust: true,
        allowedTools: ['write'],
        canUseTool: () => {
          throw new Error('allowedTools should have answered');
        },
      },
    })) {
      if (message.type !== 'result') continue;
      results.push(message.result);
      second?.();
    }
    expect(results).toEqual(['first done', 'second done']);
    expect(await readFile(path.join(project.dir, 'a.txt'), 'utf8')).toBe('A\n');
    // The second turn's request holds the first turn.
    expect(JSON.stringify(fake.requests[2]?.body.messages)).toContain('first question');
  });

  it('answers a malformed prompt message with an error message and goes on; a failing iterable ends the run', async () => {
    fake.push({ text: 'still here' });
    async function* prompts(): AsyncGenerator<UserInputMessage> {
      yield { type: 'user', message: { role: 'user', content: 3 } } as unknown as UserInputMessage;
      yield user('hi');
      throw new Error('the source broke');
    }
    const messages = await collect(
      query({ prompt: prompts(), options: { cwd: project.dir, env: env(), trust: true } }),
    );
    const errors = messages.filter((message) => message.type === 'system' && message.subtype === 'error');
    expect(errors.map((message) => message.message)).toEqual([
      expect.stringMatching(/^prompt message 1: a user line is/),
      'prompt: the source broke',
    ]);
    expect(messages.filter((message) => message.type === 'result').map((message) => message.result)).toEqual([
      'still here',
    ]);
  });

  it('interrupt() cancels the running turn; an abortController ends the run', async () => {
    // The model never answers: only a cancel ends the turn.
    fake.push({ kind: 'hang' });
    const run = query({ prompt: 'wait', options: { cwd: project.dir, env: env(), trust: true } });
    const seen: QueryMessage[] = [];
    for await (const message of run) {
      seen.push(message);
      if (message.type === 'system' && message.subtype === 'init') {
        await fake.waitForRequests(1);
        await run.interrupt();
      }
    }
    expect(seen.at(-1)).toMatchObject({ type: 'result', is_error: true });

    fake.push({ kind: 'hang' });
    const abortController = new AbortController();
    const aborted = query({
      prompt: 'wait',
      options: { cwd: project.dir, env: env(), trust: true, abortController },
    });
    const second: QueryMessage[] = [];
    for await (const message of aborted) {
      second.push(message);
      if (message.type === 'system' && message.subtype === 'init') {
        await fake.waitForRequests(2);
        abortController.abort();
      }
    }
    expect(second.at(-1)).toMatchObject({ type: 'result', is_error: true });
  });

  it('runs hooks given as callbacks: a PreToolUse callback denies the call with its reason', async () => {
    fake.push({ toolCalls: [call('write', { path: 'hooked.txt', content: 'x' })] }, { text: 'hook said no' });
    const seen: Array<[unknown, string | undefined]> = [];
    const messages = await collect(
      query({
        prompt: 'write hooked.txt',
        options: {
          cwd: project.dir,
          env: env(),
          trust: true,
          allowedTools: ['write'],
          hooks: {
            PreToolUse: [
              {
                matcher: 'write',
                hooks: [
                  async (input, toolUseID) => {
                    seen.push([input.tool_input, toolUseID]);
                    return {
                      hookSpecificOutput: {
                        hookEventName: 'PreToolUse',
                        permissionDecision: 'deny',
                        permissionDecisionReason: 'hooks keep hooked.txt out',
                      },
                    };
                  },
                ],
              },
            ],
            // Its matcher takes no call here: never run.
            PostToolUse: [{ matcher: 'read', hooks: [() => ({ decision: 'block', reason: 'unreachable' })] }],
          },
        },
      }),
    );
    expect(seen).toEqual([[{ path: 'hooked.txt', content: 'x' }, expect.any(String)]]);
    expect(existsSync(path.join(project.dir, 'hooked.txt'))).toBe(false);
    expect(messages.find((message) => message.type === 'user')).toMatchObject({
      tool_use_result: expect.stringContaining('hooks keep hooked.txt out'),
    });
    expect(messages.at(-1)).toMatchObject({ type: 'result', result: 'hook said no' });
  });

  it('throws a clear error when the run cannot start', async () => {
    const run = query({
      prompt: 'hi',
      options: { cwd: project.dir, env: env(), trust: true, resume: 'no-such-session' },
    });
    await expect(collect(run)).rejects.toThrow(/no-such-session/);
  });
});

function withoutIds(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/"(call|toolu|msg)_[A-Za-z0-9_]+"/g, '"<id>"')
      .replace(/"id":"[^"]*"/g, '"id":"<id>"'),
  );
}
