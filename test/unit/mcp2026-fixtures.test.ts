/**
 * The per-feature MCP 2026-07-28 fixture servers (test/fixtures/mcp2026/) proven against the plain
 * official SDK v2 client, each run as a real subprocess: when our client fails against one of them,
 * the fault is ours. Every wait is on an event (a notification, an answer), never a sleep.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type CallToolResult,
  Client,
  type ClientOptions,
  type JSONRPCMessage,
  type NotificationMethod,
  SdkError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { SkillsClient, SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { REPO_ROOT } from '../helpers/paths.js';

const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026');
const PIN: ClientOptions = { versionNegotiation: { mode: { pin: '2026-07-28' } } };
const TASKS = 'io.modelcontextprotocol/tasks';

let dir: string;
let cleanups: (() => Promise<void> | void)[];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mcp2026-fixtures-'));
  cleanups = [];
});
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const logFile = () => path.join(dir, 'methods.log');
const logLines = () => readFileSync(logFile(), 'utf8').trim().split('\n');

/** A connected SDK v2 client on `fixture` over stdio (2026-07-28 unless `options` say otherwise). */
async function connect(
  fixture: string,
  options: ClientOptions = PIN,
  env: Record<string, string> = {},
): Promise<{ client: Client; transport: StdioClientTransport }> {
  const client = new Client({ name: 'fixture-check', version: '1.0.0' }, options);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(FIXTURES, fixture)],
    env: { ...(process.env as Record<string, string>), MCP_FIXTURE_LOG: logFile(), ...env },
    stderr: 'pipe',
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

/** The same over Streamable HTTP: the fixture started with `--http 0`, its port read from stdout. */
async function connectHttp(fixture: string): Promise<Client> {
  const child: ChildProcess = spawn(process.execPath, [path.join(FIXTURES, fixture), '--http', '0'], {
    env: { ...process.env, MCP_FIXTURE_LOG: logFile() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => {
    child.kill();
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(String(chunk).trim()));
    child.once('exit', (code) => reject(new Error(`${fixture} exited with ${code} before listening`)));
  });
  const client = new Client({ name: 'fixture-check', version: '1.0.0' }, PIN);
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  cleanups.push(() => client.close());
  return client;
}

/** Resolves with the params of the next `method` notification `client` receives. */
function next(client: Client, method: NotificationMethod): Promise<unknown> {
  return new Promise((resolve) => {
    client.setNotificationHandler(method, (notification) => resolve(notification.params));
  });
}

function textOf(result: CallToolResult | { content?: unknown }): string {
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  textOf(await client.callTool({ name, arguments: args }));

describe('mrtr.mjs', () => {
  async function mrtrClient(action: 'accept' | 'decline' | 'cancel', options: ClientOptions = PIN) {
    const connected = await connect('mrtr.mjs', {
      ...options,
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      inputRequired: { maxRounds: 3 },
    });
    const asked: string[] = [];
    connected.client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return action === 'accept'
        ? { action, content: { name: 'Ada', passphrase: 'open sesame' } }
        : { action };
    });
    connected.client.setRequestHandler('sampling/createMessage', async (request) => {
      const content = request.params.messages[0]?.content;
      const prompt = content && !Array.isArray(content) && content.type === 'text' ? content.text : '?';
      return { model: 'fake', role: 'assistant', content: { type: 'text', text: `42 (for ${prompt})` } };
    });
    connected.client.setRequestHandler('roots/list', async () => ({
      roots: [
        { uri: 'file:///work/a', name: 'a' },
        { uri: 'file:///work/b', name: 'b' },
      ],
    }));
    return { ...connected, asked };
  }

  it('resolves elicitation, sampling and roots rounds through the client handlers', async () => {
    const { client, asked } = await mrtrClient('accept');
    expect(client.getProtocolEra()).toBe('modern');
    expect(await call(client, 'ask_name')).toBe('hello, Ada');
    expect(asked).toEqual(['What is your name?']);
    expect(await call(client, 'ask_sample', { prompt: 'the answer?' })).toBe('sampled: 42 (for the answer?)');
    expect(await call(client, 'ask_roots')).toBe('roots: file:///work/a, file:///work/b');
    // Each tool answered input_required once, then complete on the retry.
    expect(logLines().filter((line) => line === 'tools/call')).toHaveLength(6);
  });

  it('tells a declined and a cancelled form apart', async () => {
    expect(await call((await mrtrClient('decline')).client, 'ask_name')).toBe('declined');
    expect(await call((await mrtrClient('cancel')).client, 'ask_name')).toBe('cancelled');
  });

  it('needs input for prompts/get and resources/read too', async () => {
    const { client } = await mrtrClient('accept');
    const prompt = await client.getPrompt({ name: 'greet' });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Say hello to Ada' });
    const read = await client.readResource({ uri: 'mrtr://secret' });
    expect(read.contents[0]).toMatchObject({ text: 'the secret behind open sesame' });
  });

  it('asks forever, so the client round cap ends the call', async () => {
    const { client } = await mrtrClient('accept');
    const error = await client.callTool({ name: 'ask_forever', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe('INPUT_REQUIRED_ROUNDS_EXCEEDED');
    // The first call plus maxRounds retries, then the client gives up.
    expect(logLines().filter((line) => line.startsWith('ask_forever round'))).toHaveLength(4);
  });

  it('serves a 2025-era client the same tools through server→client requests', async () => {
    const { client, asked } = await mrtrClient('accept', {});
    expect(client.getProtocolEra()).toBe('legacy');
    expect(await call(client, 'ask_name')).toBe('hello, Ada');
    expect(asked).toEqual(['What is your name?']);
    expect(logLines()).toContain('initialize');
  });
});

describe('list-changes.mjs', () => {
  it('notifies a listen stream of tool, prompt and resource list changes', async () => {
    const { client } = await connect('list-changes.mjs');
    const sub = await client.listen({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
    });
    expect(sub.honoredFilter).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
    });

    const tools = next(client, 'notifications/tools/list_changed');
    expect(await call(client, 'add_tool', { name: 'zeta' })).toBe('added tool zeta');
    await tools;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('zeta');
    expect(await call(client, 'zeta')).toBe('called zeta');

    const prompts = next(client, 'notifications/prompts/list_changed');
    await call(client, 'add_prompt', { name: 'p2' });
    await prompts;
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['hello', 'p2']);

    const resources = next(client, 'notifications/resources/list_changed');
    await call(client, 'add_resource', { name: 'r2' });
    await resources;
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['list://first', 'list://r2']);
    expect(logLines()).toContain('subscriptions/listen');
  });

  it('drops the listen stream on request; a new listen gets notifications again', async () => {
    const { client } = await connect('list-changes.mjs');
    const sub = await client.listen({ toolsListChanged: true });
    expect(await call(client, 'drop_listen')).toBe('dropped 1');
    expect(await sub.closed).toBe('remote');

    const again = await client.listen({ toolsListChanged: true });
    const tools = next(client, 'notifications/tools/list_changed');
    await call(client, 'add_tool', { name: 'eta' });
    await tools;
    await again.close();
    expect(logLines().filter((line) => line === 'subscriptions/listen')).toHaveLength(2);
  });

  it('does the same over Streamable HTTP', async () => {
    const client = await connectHttp('list-changes.mjs');
    const sub = await client.listen({ toolsListChanged: true });
    const tools = next(client, 'notifications/tools/list_changed');
    await call(client, 'add_tool', { name: 'over_http' });
    await tools;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('over_http');
    expect(await call(client, 'drop_listen')).toBe('dropped 1');
    expect(await sub.closed).toBe('remote');
  });
});

describe('resource-updates.mjs', () => {
  it('sends resources/updated for a subscribed URI only, on the listen stream', async () => {
    const { client } = await connect('resource-updates.mjs');
    const updated: string[] = [];
    let onUpdate = () => {};
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updated.push(n.params.uri);
      onUpdate();
    });
    const sub = await client.listen({ resourceSubscriptions: ['res://counter'] });
    expect(sub.honoredFilter).toEqual({ resourceSubscriptions: ['res://counter'] });
    expect((await client.readResource({ uri: 'res://counter' })).contents[0]).toMatchObject({
      text: 'count 0',
    });

    // The unsubscribed resource changes first: had it been sent, it would come first.
    expect(await call(client, 'bump', { uri: 'res://other' })).toBe('res://other: count 1');
    const arrived = new Promise<void>((resolve) => {
      onUpdate = resolve;
    });
    expect(await call(client, 'bump')).toBe('res://counter: count 1');
    await arrived;
    expect(updated).toEqual(['res://counter']);
    expect((await client.readResource({ uri: 'res://counter' })).contents[0]).toMatchObject({
      text: 'count 1',
    });
  });

  it('drop_listen ends the stream; re-listening brings the updates back', async () => {
    const { client } = await connect('resource-updates.mjs');
    const sub = await client.listen({ resourceSubscriptions: ['res://counter'] });
    await call(client, 'drop_listen');
    expect(await sub.closed).toBe('remote');
    await client.listen({ resourceSubscriptions: ['res://counter'] });
    const update = next(client, 'notifications/resources/updated');
    await call(client, 'bump');
    expect(await update).toMatchObject({ uri: 'res://counter' });
  });

  it('serves 2025-era resources/subscribe', async () => {
    const { client } = await connect('resource-updates.mjs', {});
    await client.subscribeResource({ uri: 'res://counter' });
    const update = next(client, 'notifications/resources/updated');
    await call(client, 'bump');
    expect(await update).toMatchObject({ uri: 'res://counter' });
    expect(logLines()).toContain('subscribe res://counter');
  });
});

describe('task.mjs', () => {
  const Loose = z.looseObject({});
  type TaskView = { taskId: string; status: string; statusMessage?: string; [key: string]: unknown };

  /** A client declaring the tasks extension, and the raw CreateTaskResults the SDK refuses to return. */
  async function taskClient(env: Record<string, string> = {}) {
    const { client, transport } = await connect(
      'task.mjs',
      { ...PIN, capabilities: { extensions: { [TASKS]: {} } } },
      env,
    );
    const handles: TaskView[] = [];
    // The client set the transport's onmessage on connect; look at each message before it does.
    const inner = transport.onmessage as NonNullable<StdioClientTransport['onmessage']>;
    transport.onmessage = (message: JSONRPCMessage) => {
      const result = (message as { result?: { resultType?: string } }).result;
      if (result?.resultType === 'task') handles.push(result as unknown as TaskView);
      inner(message);
    };
    /** Calls `name`; SDK 2.4.0 rejects a task result, so the handle comes from the wire. */
    const start = async (name: string, args: Record<string, unknown> = {}) => {
      const error = await client.callTool({ name, arguments: args }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SdkError);
      expect((error as SdkError).code).toBe('UNSUPPORTED_RESULT_TYPE');
      const handle = handles.at(-1);
      expect(handle).toMatchObject({ status: 'working', pollIntervalMs: expect.any(Number) });
      return handle!.taskId;
    };
    const get = async (taskId: string) =>
      (await client.request({ method: 'tasks/get', params: { taskId } }, Loose)) as TaskView;
    return { client, start, get };
  }

  it('a slow call becomes a task that reports progress, then its result', async () => {
    const { start, get } = await taskClient();
    const taskId = await start('slow', { steps: 2 });
    expect(await get(taskId)).toMatchObject({ status: 'working', statusMessage: 'step 1/2' });
    expect(await get(taskId)).toMatchObject({ status: 'working', statusMessage: 'step 2/2' });
    expect(await get(taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'slow done after 2 steps' }] },
    });
  });

  it('tasks/cancel cancels the task and the fixture records it', async () => {
    const cancelLog = path.join(dir, 'cancels.log');
    const { client, start, get } = await taskClient({ TASK_CANCEL_LOG: cancelLog });
    const taskId = await start('slow');
    await get(taskId);
    await client.request({ method: 'tasks/cancel', params: { taskId } }, Loose);
    expect(readFileSync(cancelLog, 'utf8')).toBe(`cancel ${taskId}\n`);
    expect(await get(taskId)).toMatchObject({ status: 'cancelled' });
    expect(logLines()).toContain('tasks/cancel');
  });

  it('a task that needs input asks through tasks/get and takes the answer through tasks/update', async () => {
    const { client, start, get } = await taskClient();
    const taskId = await start('approve');
    const waiting = await get(taskId);
    expect(waiting).toMatchObject({
      status: 'input_required',
      inputRequests: {
        confirm: { method: 'elicitation/create', params: { message: 'Approve the deployment?' } },
      },
    });
    await client.request(
      {
        method: 'tasks/update',
        params: { taskId, inputResponses: { confirm: { action: 'accept', content: { approved: true } } } },
      },
      Loose,
    );
    expect(await get(taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'approved' }] },
    });
  });

  it('a failing task reports its JSON-RPC error; an unknown task id is refused', async () => {
    const { client, start, get } = await taskClient();
    const taskId = await start('fail');
    expect(await get(taskId)).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'the job broke' },
    });
    await expect(
      client.request({ method: 'tasks/get', params: { taskId: 'nope' } }, Loose),
    ).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('without the extension declared: slow answers directly, approve needs the capability (-32021)', async () => {
    const { client } = await connect('task.mjs');
    expect(await call(client, 'slow')).toBe('slow done after 3 steps (no task)');
    await expect(client.callTool({ name: 'approve', arguments: {} })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });
});

describe('skill.mjs', () => {
  it('lists and serves verified skills; SkillsClient refuses the one with a wrong digest', async () => {
    const { client } = await connect('skill.mjs');
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    const listing = await skills.list();
    expect(listing.skills.map((s) => s.uri)).toEqual([
      'skill://deploy/SKILL.md',
      'skill://review/SKILL.md',
      'skill://tampered/SKILL.md',
    ]);
    expect(listing).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    const review = listing.skills[1]!;
    expect(review.resources).toEqual([
      expect.objectContaining({
        uri: 'skill://review/SKILL.md',
        size: expect.any(Number),
        digest: expect.stringMatching(/^sha256:/),
      }),
      expect.objectContaining({ uri: 'skill://review/references/GUIDE.md' }),
    ]);

    const manifest = await skills.read(review);
    expect(manifest).toMatchObject({ verified: true, frontmatter: { name: 'review' } });
    expect(manifest.body).toContain('references/GUIDE.md');
    expect((await skills.read(review, 'references/GUIDE.md')).text).toContain('Review guide');
    expect((await skills.get('skill://deploy/SKILL.md')).skill.frontmatter.name).toBe('deploy');

    const refused = await skills.read(listing.skills[2]!).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SkillVerificationError);
    expect((refused as SkillVerificationError).reason).toBe('digest');
    expect(logLines()).toEqual(expect.arrayContaining(['skills/list', 'skills/get', 'resources/read']));
  });
});

describe('cache-hints.mjs', () => {
  const counts = async (client: Client) => JSON.parse(await call(client, 'counts')) as Record<string, number>;

  it('answers lists with ttlMs and cacheScope, tools in name order; the client re-lists only when stale', async () => {
    const { client } = await connect('cache-hints.mjs');
    const tools = await client.listTools();
    expect(tools).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    expect(tools.tools.map((t) => t.name)).toEqual(['alpha', 'counts', 'zulu']);
    expect(await client.listPrompts()).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    expect(await client.listResources()).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    expect(await client.readResource({ uri: 'cache://clock' })).toMatchObject({
      ttlMs: 0,
      cacheScope: 'private',
    });

    await client.listTools(); // fresh: served from the client's cache
    expect((await counts(client))['tools/list']).toBe(1);
    await client.listTools(undefined, { cacheMode: 'refresh' });
    expect((await counts(client))['tools/list']).toBe(2);
  });

  it('with CACHE_TTL_MS=0 every list goes to the server', async () => {
    const { client } = await connect('cache-hints.mjs', PIN, { CACHE_TTL_MS: '0' });
    await client.listTools();
    await client.listTools();
    expect((await counts(client))['tools/list']).toBe(2);
    expect(logLines().filter((line) => line === 'tools/list').length).toBeGreaterThanOrEqual(2);
  });
});
