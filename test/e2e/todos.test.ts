/**
 * The todo list through the built CLI and the fake model: `todo_write` replaces it, the JSON result
 * carries it, `--continue` brings it back (the next turn's context and `/todos`), and a compaction
 * that summarises the turn that wrote it still leaves it in the next turn's user message.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { cliFixture } from './harness.js';

const fx = cliFixture();

const run = async (args: string[], env: Record<string, string> = {}) => {
  const result = await fx.run(args, { env });
  expect(result.code, result.stderr).toBe(0);
  return result;
};

const systemOf = (request: RecordedRequest) => String(request.body.messages[0]?.content);
/** The request's last user message: the turn's, whose context restates the list. */
const turnOf = (request: RecordedRequest) =>
  String(request.body.messages.findLast((message) => message.role === 'user')?.content);
const isSummaryRequest = (request: RecordedRequest) =>
  systemOf(request).startsWith('You compact the conversation');

const plan = {
  todos: [
    { content: 'read the config', status: 'completed' },
    { content: 'fix the parser', status: 'in_progress' },
    { content: 'write tests', status: 'pending' },
  ],
};
const listed = '[x] read the config\n[>] fix the parser\n[ ] write tests';

describe('todo_write', () => {
  it('keeps the list with the session: JSON result, --continue, /todos', async () => {
    fx.fake.push(
      { toolCalls: [{ name: 'todo_write', arguments: JSON.stringify(plan) }] },
      { text: 'Planned.' },
    );
    const first = await run(['-p', 'Plan the work', '--output-format', 'json']);
    const json = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(json.todos).toEqual(plan.todos);
    expect((json.tool_calls as Array<{ result: string }>)[0]!.result).toContain(listed);

    fx.fake.push({ text: 'Continuing.' });
    await run(['-p', 'Go on', '--continue']);
    expect(turnOf(fx.fake.requests[2]!)).toContain(listed);

    const shown = await run(['-p', '/todos', '--continue']);
    expect(shown.stdout).toBe(`${listed}\n`);

    // /reset clears the conversation, and the plan with it.
    await run(['-p', '/reset', '--continue']);
    expect((await run(['-p', '/todos', '--continue'])).stdout).toBe('(the todo list is empty)\n');
  });

  it('refuses two items in progress with a message for the model, and keeps the old list', async () => {
    const two = {
      todos: [
        { content: 'a', status: 'in_progress' },
        { content: 'b', status: 'in_progress' },
      ],
    };
    fx.fake.push(
      { toolCalls: [{ name: 'todo_write', arguments: JSON.stringify(plan) }] },
      { toolCalls: [{ name: 'todo_write', arguments: JSON.stringify(two) }] },
      { text: 'ok' },
    );
    const result = await run(['-p', 'Plan', '--output-format', 'json']);
    const json = JSON.parse(result.stdout) as {
      todos: unknown;
      tool_calls: Array<{ result: string; is_error: boolean }>;
    };
    expect(json.tool_calls[1]!.is_error).toBe(true);
    expect(json.tool_calls[1]!.result).toMatch(/2 items are in_progress; at most one may be/);
    expect(json.todos).toEqual(plan.todos);
  });

  it('survives a compaction that summarises the turn that wrote it', async () => {
    const env = { GEEKAGENT_CONTEXT_WINDOW: '4000' };
    fx.fake.push(
      { toolCalls: [{ name: 'todo_write', arguments: JSON.stringify(plan) }] },
      { text: `Planned. ${'n'.repeat(2_000)}` },
    );
    await run(['-p', `Plan the work. ${'x'.repeat(5_000)}`], env);
    fx.fake.push({ text: 'The user asked for a plan.' }, { text: 'On it.' });
    const second = await run(['-p', 'What next?', '--continue'], env);
    expect(second.stderr).toMatch(/context compacted/);
    const summary = fx.fake.requests.findIndex(isSummaryRequest);
    expect(summary).toBeGreaterThan(0);
    const next = fx.fake.requests[summary + 1]!;
    // The turn that called todo_write is gone from the messages, the list is not.
    expect(JSON.stringify(next.body.messages.slice(1))).not.toContain('"todo_write"');
    expect(turnOf(next)).toContain(listed);
  });
});
