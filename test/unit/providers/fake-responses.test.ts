/**
 * The Responses fake refuses what the real API refuses, with its 400 error shape: each rule is
 * shown here on a raw request, next to the same request done right being accepted.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeResponses, startFakeResponses } from '../../fixtures/fake-responses.js';

let fake: FakeResponses;
beforeEach(async () => {
  fake = await startFakeResponses();
});
afterEach(() => fake.close());

type Item = Record<string, unknown>;

async function post(body: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const response = await fetch(`${fake.url}/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-5', stream: true, store: false, ...body }),
  });
  return { status: response.status, text: await response.text() };
}

/** The items the reply's `response.output_item.done` events carried. */
function doneItems(sse: string): Item[] {
  return sse
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Item)
    .filter((event) => event.type === 'response.output_item.done')
    .map((event) => event.item as Item);
}

async function expectRefused(body: Record<string, unknown>, message: string | RegExp): Promise<void> {
  const { status, text } = await post(body);
  expect(status).toBe(400);
  const { error } = JSON.parse(text) as { error: Item };
  expect(error.type).toBe('invalid_request_error');
  expect(error.message).toMatch(message);
}

describe('the Responses fake', () => {
  it('checks replayed reasoning and the pairing of calls and outputs', async () => {
    // The request declares no tools: the fake's replay checks are what is tested.
    fake.push({ reasoning: 'plan', undeclared: true, toolCalls: [{ name: 'read', arguments: '{}' }] });
    const first = await post({
      input: 'hi',
      reasoning: { summary: 'auto' },
      include: ['reasoning.encrypted_content'],
    });
    expect(first.status).toBe(200);
    const [reasoning, call] = doneItems(first.text) as [Item, Item];
    expect(reasoning).toMatchObject({ type: 'reasoning', summary: [{ text: 'plan' }] });
    const fc = { type: 'function_call', call_id: call.call_id, name: 'read', arguments: '{}' };
    const out = { type: 'function_call_output', call_id: call.call_id, output: 'ok' };

    fake.push({ text: 'done' });
    expect((await post({ input: [reasoning, fc, out] })).status).toBe(200);

    await expectRefused({ input: [{ ...reasoning, summary: [] }, fc, out] }, /could not be verified/);
    await expectRefused({ input: [fc, out] }, /without its required 'reasoning' item/);
    await expectRefused(
      { input: [{ type: 'reasoning', id: reasoning.id, summary: [] }, fc, out] },
      /Items are not persisted when `store` is set to false/,
    );
    await expectRefused(
      { store: true, input: [{ type: 'item_reference', id: reasoning.id }, fc, out] },
      /Item with id '.*' not found\.$/,
    );
    await expectRefused({ input: [reasoning, fc] }, /No tool output found for function call/);
    await expectRefused({ input: [out] }, /No tool call found for function call output/);
  });

  it('labels message items with their phase and wants it back unchanged; refuses a phase the API does not know', async () => {
    fake.push({
      messages: [{ text: 'Looking.', phase: 'commentary' }],
      text: 'Done.',
      phase: 'final_answer',
    });
    const first = await post({ input: 'hi' });
    expect(first.status).toBe(200);
    expect(doneItems(first.text).map(({ phase, content }) => ({ phase, content }))).toEqual([
      { phase: 'commentary', content: [expect.objectContaining({ text: 'Looking.' })] },
      { phase: 'final_answer', content: [expect.objectContaining({ text: 'Done.' })] },
    ]);
    const user = { type: 'message', role: 'user', content: 'hi' };
    const looking = { type: 'message', role: 'assistant', content: 'Looking.', phase: 'commentary' };
    const done = { type: 'message', role: 'assistant', content: 'Done.', phase: 'final_answer' };
    fake.push({ text: 'ok' });
    expect((await post({ input: [user, looking, done, { ...user, content: 'more' }] })).status).toBe(200);

    await expectRefused(
      { input: [user, { ...looking, phase: undefined }, done] },
      /phase null.*'commentary'/,
    );
    await expectRefused({ input: [user, looking, { ...done, phase: 'commentary' }] }, /'final_answer'/);
    await expectRefused({ input: [user, { ...looking, phase: 'aside' }] }, "Invalid value: 'aside'.");
  });

  it('refuses unknown parameters, reasoning for other models and tool schemas the API refuses', async () => {
    await expectRefused({ input: 'hi', temprature: 1 }, "Unknown parameter: 'temprature'.");
    await expectRefused(
      { model: 'gpt-4.1', input: 'hi', reasoning: { summary: 'auto' } },
      /reasoning.summary/,
    );
    const tools = (parameters: unknown) => [{ type: 'function', name: 'f', parameters, strict: false }];
    await expectRefused({ input: 'hi', tools: tools({ type: 'string' }) }, /type: "object"/);
    await expectRefused({ input: 'hi', tools: tools({ type: 'object', anyOf: [] }) }, /at the top level/);
    await expectRefused(
      { input: 'hi', tools: tools({ type: 'object', properties: { t: { type: 'array' } } }) },
      /array schema missing items/,
    );
    expect(fake.requests.every((request) => request.rejected !== undefined)).toBe(true);
  });
});
