/**
 * Prompts that stay cached, through the built CLI and the fake model's recorded requests: what
 * changes from turn to turn (recalled memory, the todo list) is in that turn's user message and
 * stays byte-identical there, while the system prompt is the same in every request of the session;
 * the tool list is the same whether the MCP tools came from live servers (a cold run) or from their
 * cached listings (a warm one); `prompt_cache_key` carries the session id where it is allowed.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RecordedRequest, subAgentOf } from '../fixtures/fake-model.js';
import { cliFixture, DEMO_SERVER, FIXTURE_SERVERS, parseJsonOutput } from './harness.js';

const fx = cliFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
const systemOf = (request: RecordedRequest) => String(request.body.messages[0]!.content);
const userMessages = (request: RecordedRequest) =>
  request.body.messages.filter((message) => message.role === 'user').map((m) => String(m.content));

async function run(args: string[], env: Record<string, string> = {}) {
  const result = await fx.run(args, { env });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

async function writeMemory(notes: string[]) {
  const created = new Date().toISOString();
  await fx.project.write(
    '.geekagent/memory.json',
    JSON.stringify({
      version: 1,
      entries: notes.map((content, index) => ({
        id: `m0000000${index}`,
        content,
        created,
        scope: 'project',
      })),
    }),
  );
}

describe('prompts that stay cached', () => {
  it('keeps the system prompt byte-identical while recall differs; the recalled note stays in its turn', async () => {
    await writeMemory([
      'The staging database is called kestrel',
      'Deploys go through the release train script on Thursdays',
    ]);
    fx.fake.push(
      { toolCalls: [call('todo_write', { todos: [{ content: 'check staging', status: 'in_progress' }] })] },
      { text: 'kestrel' },
    );
    await run(['-p', 'Which database does staging use?']);
    fx.fake.push({ text: 'sunny' });
    await run(['-p', 'What is the weather like in Paris?', '--continue']);
    fx.fake.push({ text: 'the release train' });
    await run(['-p', 'How do deploys work on Thursdays?', '--continue']);

    const requests = fx.fake.requests;
    expect(requests).toHaveLength(4);
    // One system prompt for the whole session, with no recalled note or todo list in it.
    for (const request of requests) expect(systemOf(request)).toBe(systemOf(requests[0]!));
    expect(systemOf(requests[0]!)).not.toContain('kestrel');
    expect(systemOf(requests[0]!)).not.toContain('Recalled from long-term memory');

    // Turn 1's message carries what was recalled for it, then the person's words.
    const [first] = userMessages(requests[0]!);
    expect(first).toContain('(project) The staging database is called kestrel');
    expect(first).not.toContain('release train');
    expect(first!.endsWith('\n\nWhich database does staging use?')).toBe(true);
    // Turn 2 recalled nothing: its message is the todo reminder and the words.
    const second = userMessages(requests[2]!)[1]!;
    expect(second).not.toContain('Recalled from long-term memory');
    expect(second).toContain('[>] check staging');
    // Turn 3 recalled the other note; the earlier turns' messages are sent byte for byte as before.
    const third = userMessages(requests[3]!);
    expect(third[0]).toBe(first);
    expect(third[1]).toBe(second);
    expect(third[2]).toContain('(project) Deploys go through the release train script on Thursdays');
    expect(third[2]).not.toContain('kestrel');
    // Every request's messages begin with the previous request's, byte for byte.
    for (let i = 1; i < requests.length; i++) {
      const before = JSON.stringify(requests[i - 1]!.body.messages);
      expect(JSON.stringify(requests[i]!.body.messages).startsWith(before.slice(0, -1))).toBe(true);
    }

    // The person's words alone are theirs: the session's title and its saved user text.
    const listed = await run(['-p', '/sessions', '--continue']);
    expect(listed.stdout).toContain('Which database does staging use?');
    expect(listed.stdout).not.toContain('turn-context');
    const saved = await savedUserMessages(path.join(fx.project.home, '.geekagent'));
    expect(saved.map((message) => message.text)).toEqual([
      'Which database does staging use?',
      'What is the weather like in Paris?',
      'How do deploys work on Thursdays?',
    ]);
    expect(saved[0]!.context).toContain('kestrel');
  });

  it('sends the same tool list from a cold run (live servers) and a warm one (cached listings)', async () => {
    await fx.project.mcpServers({
      many: {
        command: process.execPath,
        args: [path.join(FIXTURE_SERVERS, 'many-tools.mjs')],
        env: { TOOL_COUNT: '6' },
      },
      demo: { command: process.execPath, args: [DEMO_SERVER] },
    });
    const env = { GEEKAGENT_TOOL_SEARCH: 'off' };
    fx.fake.push({ text: 'cold' });
    await run(['-p', 'hi'], env);
    fx.fake.push({ text: 'warm' });
    const warm = await run(['-p', 'hi', '--continue', '--output-format', 'json'], env);
    fx.fake.push({ text: 'warm again' });
    await run(['-p', 'hi', '--continue'], env);

    const [cold, second, third] = fx.fake.requests.map((request) => JSON.stringify(request.body.tools));
    const names = fx.fake.requests[0]!.body.tools!.map((tool) => (tool.function as { name: string }).name);
    // Built-ins first, then the servers in config order, each in its listing order.
    expect(names.indexOf('read')).toBeLessThan(names.indexOf('mcp_many_search_issues'));
    expect(names.indexOf('mcp_many_search_issues')).toBeLessThan(names.indexOf('mcp_demo_word_count'));
    expect(parseJsonOutput(warm).result).toBe('warm');
    expect(second).toBe(cold);
    expect(third).toBe(cold);
    expect(systemOf(fx.fake.requests[1]!)).toBe(systemOf(fx.fake.requests[0]!));
  });

  it('sends the session id as prompt_cache_key with GEEKAGENT_PROMPT_CACHE_KEY=1, not by default to another server', async () => {
    fx.fake.push({ text: 'no key' });
    await run(['-p', 'hi']);
    expect(fx.fake.requests[0]!.body).not.toHaveProperty('prompt_cache_key');

    const env = { GEEKAGENT_PROMPT_CACHE_KEY: '1' };
    fx.fake.push({ toolCalls: [call('delegate_task', { task: 'look around' })] }, { text: 'done' });
    fx.fake.pushFor('explore', { text: 'looked' });
    const first = sessionOf(await run(['-p', 'delegate', '--output-format', 'json'], env));
    fx.fake.push({ text: 'again' });
    const second = sessionOf(await run(['-p', 'again', '--continue', '--output-format', 'json'], env));
    expect(second.session_id).toBe(first.session_id);

    const keyed = fx.fake.requests.slice(1);
    const main = keyed.filter((request) => subAgentOf(request) === undefined);
    const child = keyed.filter((request) => subAgentOf(request) === 'explore');
    expect(main).toHaveLength(3);
    for (const request of main) expect(keyOf(request)).toBe(first.session_id);
    // A sub-agent run has a key of its own.
    expect(child).toHaveLength(1);
    expect(keyOf(child[0]!)).toMatch(/explore/);
    expect(keyOf(child[0]!)).not.toBe(first.session_id);
  });
});

function sessionOf(run: Parameters<typeof parseJsonOutput>[0]): { session_id: string } {
  const json = parseJsonOutput(run) as unknown as { session_id: string };
  expect(json.session_id).toMatch(/./);
  return json;
}

function keyOf(request: RecordedRequest): unknown {
  return (request.body as Record<string, unknown>).prompt_cache_key;
}

/** The user messages of the one saved session log under `dir` (its `append` lines). */
async function savedUserMessages(dir: string): Promise<Array<{ text: string; context?: string }>> {
  const files = (await listFiles(dir)).filter(
    (file) =>
      file.includes(`${path.sep}sessions${path.sep}`) && file.endsWith('.jsonl') && !file.includes('.agents'),
  );
  expect(files).toHaveLength(1);
  const out: Array<{ text: string; context?: string }> = [];
  for (const line of (await readFile(files[0]!, 'utf8')).split('\n')) {
    if (line === '' || !line.includes('"role":"user"')) continue;
    const event = JSON.parse(line) as { message?: { role: string; text: string; context?: string } };
    if (event.message?.role === 'user') out.push(event.message);
  }
  return out;
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full)));
    else out.push(full);
  }
  return out;
}
