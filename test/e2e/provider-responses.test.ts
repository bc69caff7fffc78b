/**
 * GEEKAGENT_PROVIDER=openai-responses through the built CLI in print mode, against the Responses
 * API fake (test/fixtures/fake-responses.ts), which refuses what the real API refuses: reasoning
 * items that were altered, dropped or given by id alone, outputs that answer no call, tool schemas
 * it does not take, a message phase dropped. Covers tool rounds with reasoning and message phases
 * (also across runs of one session), parallel calls, usage, the errors people act on (401, 429,
 * overflow, a tool the API refuses), schemas left out with a note, and MCP images sent as images.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeResponses, type ResponsesRequest, startFakeResponses } from '../fixtures/fake-responses.js';
import { userSessionsDir } from '../helpers/session-files.js';
import { createProject, FIXTURE_SERVERS, type Project, parseJsonOutput, runCli } from './harness.js';

let project: Project;
let fake: FakeResponses;

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeResponses();
});
afterEach(async () => {
  await fake.close();
  await project.cleanup();
});

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, {
    project,
    modelUrl: fake.url,
    env: { GEEKAGENT_PROVIDER: 'openai-responses', OPENAI_MODEL: 'gpt-5-mini', ...env },
  });

type Item = Record<string, unknown>;
const input = (request: ResponsesRequest): Item[] => request.body.input ?? [];
const ofType = (request: ResponsesRequest, type: string) =>
  input(request).filter((item) => item.type === type);
const toolNames = (request: ResponsesRequest) => (request.body.tools ?? []).map((tool) => tool.name);
const rejections = () =>
  fake.requests.flatMap((request) => (request.rejected ? [request.rejected.message] : []));

describe('the OpenAI Responses provider', () => {
  it('a tool round with reasoning: the encrypted item goes back unchanged before its call, store false, also from the saved session', async () => {
    await project.write('notes.txt', 'hello from the notes');
    fake.push(
      {
        reasoning: 'I should read the notes.',
        toolCalls: [{ name: 'read', arguments: '{"path":"notes.txt"}' }],
      },
      { text: 'The notes say hello.' },
    );
    const first = await run(['-p', 'what do the notes say', '--output-format', 'json', '--allow', 'read']);
    expect(first.code, first.stderr).toBe(0);
    expect(rejections()).toEqual([]);
    const out = parseJsonOutput(first) as unknown as { result: string; reasoning: string };
    expect(out.result).toBe('The notes say hello.');
    expect(out.reasoning).toBe('I should read the notes.');

    const [opening, answer] = fake.requests;
    expect(opening!.body).toMatchObject({
      model: 'gpt-5-mini',
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { summary: 'auto' },
      parallel_tool_calls: true,
    });
    expect(String(opening!.body.instructions)).toContain('GeekAgent');
    expect(input(opening!)).toEqual([{ type: 'message', role: 'user', content: 'what do the notes say' }]);

    const types = input(answer!).map((item) => item.type);
    expect(types).toEqual(['message', 'reasoning', 'function_call', 'function_call_output']);
    const [reasoning] = ofType(answer!, 'reasoning');
    expect(reasoning).toMatchObject({
      summary: [{ type: 'summary_text', text: 'I should read the notes.' }],
      encrypted_content: expect.any(String),
    });
    const [call] = ofType(answer!, 'function_call');
    const [output] = ofType(answer!, 'function_call_output');
    expect(call).toMatchObject({ name: 'read', arguments: '{"path":"notes.txt"}' });
    expect(output!.call_id).toBe(call!.call_id);
    expect(String(output!.output)).toContain('hello from the notes');

    // The next run of the session reads the items back from the session file, still unchanged.
    fake.push({ text: 'Still hello.' });
    const second = await run(['-p', 'and now?', '--continue']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe('Still hello.\n');
    expect(rejections()).toEqual([]);
    expect(ofType(fake.requests[2]!, 'reasoning')).toEqual([reasoning]);
  });

  it('each assistant message goes back with its phase, message by message, also from the saved session', async () => {
    await project.write('notes.txt', 'hello from the notes');
    fake.push(
      {
        text: 'Let me read the notes.',
        phase: 'commentary',
        reasoning: 'Read them.',
        toolCalls: [{ name: 'read', arguments: '{"path":"notes.txt"}' }],
      },
      {
        messages: [{ text: 'Read them. ', phase: 'commentary' }],
        text: 'The notes say hello.',
        phase: 'final_answer',
      },
    );
    const env = { OPENAI_MODEL: 'gpt-5.5' };
    const first = await run(['-p', 'what do the notes say', '--allow', 'read'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(rejections()).toEqual([]);
    expect(first.stdout).toBe('Read them. The notes say hello.\n');
    const assistant = (request: ResponsesRequest) =>
      input(request)
        .filter((item) => item.role === 'assistant')
        .map(({ content, phase }) => ({ content, phase }));
    expect(assistant(fake.requests[1]!)).toEqual([
      { content: 'Let me read the notes.', phase: 'commentary' },
    ]);

    fake.push({ text: 'Still hello.', phase: 'final_answer' });
    const second = await run(['-p', 'and now?', '--continue'], env);
    expect(second.code, second.stderr).toBe(0);
    expect(rejections()).toEqual([]);
    expect(assistant(fake.requests[2]!)).toEqual([
      { content: 'Let me read the notes.', phase: 'commentary' },
      { content: 'Read them. ', phase: 'commentary' },
      { content: 'The notes say hello.', phase: 'final_answer' },
    ]);
  });

  it('parallel calls streamed side by side are reassembled, each output answering its call', async () => {
    await project.write('a.txt', 'AAA');
    await project.write('b.txt', 'BBB');
    fake.push(
      {
        reasoning: 'Both files.',
        toolCalls: [
          { name: 'read', arguments: '{"path":"a.txt"}' },
          { name: 'read', arguments: '{"path":"b.txt"}' },
        ],
        interleaveToolCalls: true,
        fragmentSize: 3,
      },
      { text: 'Read both.' },
    );
    const result = await run(['-p', 'read a and b', '--output-format', 'json', '--allow', 'read']);
    expect(result.code, result.stderr).toBe(0);
    expect(rejections()).toEqual([]);
    const out = parseJsonOutput(result);
    expect(out.tool_calls.map((call) => call.arguments)).toEqual([{ path: 'a.txt' }, { path: 'b.txt' }]);
    const calls = ofType(fake.requests[1]!, 'function_call');
    const outputs = ofType(fake.requests[1]!, 'function_call_output');
    expect(outputs.map((o) => o.call_id)).toEqual(calls.map((c) => c.call_id));
    expect(outputs.map((o) => String(o.output))).toEqual([
      expect.stringContaining('AAA'),
      expect.stringContaining('BBB'),
    ]);
  });

  it('usage from response.completed reaches the JSON output', async () => {
    fake.push({ text: 'hi', usage: { prompt_tokens: 1_200, completion_tokens: 30, cached_tokens: 1_024 } });
    const result = await run(['-p', 'hi', '--output-format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const { usage } = parseJsonOutput(result) as unknown as { usage: Record<string, number> };
    expect(usage).toMatchObject({ prompt_tokens: 1_200, completion_tokens: 30, total_tokens: 1_230 });
    expect(usage.cached_tokens).toBe(1_024);
    // The session's usage record has the cached count too (in the session file's own names).
    const dir = userSessionsDir(project);
    const [file] = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
    expect(readFileSync(path.join(dir, file!), 'utf8')).toContain('"cachedInputTokens":1024');
  });

  it('a 401 names OPENAI_API_KEY and hides the key the body echoes', async () => {
    fake.push((request) => ({
      kind: 'http_error',
      status: 401,
      code: 'invalid_api_key',
      message: `Incorrect API key provided: ${String(request.headers.authorization).replace('Bearer ', '')}.`,
    }));
    const result = await run(['-p', 'hi'], { OPENAI_API_KEY: 'sk-proj-abc123xyz' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'model request failed: HTTP 401: Incorrect API key provided: [REDACTED:OPENAI_API_KEY]. — check OPENAI_API_KEY',
    );
    expect(result.stderr).not.toContain('sk-proj-abc123xyz');
  });

  it('a 429 is retried as retry-after says, within GEEKAGENT_MAX_RETRIES', async () => {
    fake.push(
      {
        kind: 'http_error',
        status: 429,
        code: 'rate_limit_exceeded',
        message: 'Rate limit reached for gpt-5-mini.',
        headers: { 'retry-after': '0' },
      },
      { text: 'after the retry' },
    );
    const result = await run(['-p', 'hi'], { GEEKAGENT_MAX_RETRIES: '1' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('after the retry\n');
    expect(fake.requests).toHaveLength(2);
  });

  it('a context overflow compacts the conversation and sends it again', async () => {
    // Long enough that the earlier turn is not among the recent ones compaction keeps verbatim.
    fake.push({ text: 'Noted.' });
    expect((await run(['-p', `Remember the launch code ZEBRA-7. ${'x'.repeat(40_000)}`])).code).toBe(0);
    fake.push(
      {
        kind: 'http_error',
        status: 400,
        code: 'context_length_exceeded',
        message: 'Your input exceeds the context window of this model.',
      },
      { text: 'The launch code is ZEBRA-7.' },
      { text: 'ZEBRA-7' },
    );
    const result = await run(['-p', 'What is the launch code?', '--continue']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('ZEBRA-7\n');
    expect(result.stderr).toMatch(/context compacted/);
    const summaryRequest = fake.requests[2]!;
    expect(String(summaryRequest.body.instructions)).toMatch(/^You compact the conversation/);
    expect(input(fake.requests[3]!)).toEqual([
      {
        type: 'message',
        role: 'developer',
        content: '[Summary of previous conversation]\nThe launch code is ZEBRA-7.',
      },
      { type: 'message', role: 'user', content: 'What is the launch code?' },
    ]);
  });

  it('a tool whose schema the API refuses is left out with one note naming server and tool', async () => {
    await project.mcpServers({
      schemas: { command: 'node', args: [path.join(FIXTURE_SERVERS, 'schemas.mjs')] },
    });
    fake.push({ toolCalls: [{ name: 'mcp_schemas_lookup', arguments: '{"word":"x"}' }] }, { text: 'done' });
    const result = await run(['-p', 'look it up', '--allow', 'mcp_schemas_lookup']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('done\n');
    expect(rejections()).toEqual([]);
    const note =
      'tool "pair" of MCP server schemas is left out of requests to the OpenAI Responses API: its input schema has not at the top level';
    expect(result.stderr.split(note)).toHaveLength(2);
    for (const request of fake.requests) {
      expect(toolNames(request)).toContain('mcp_schemas_lookup');
      expect(toolNames(request)).not.toContain('mcp_schemas_pair');
    }
  });

  it('an error the API gives about one tool names its MCP server and tool', async () => {
    await project.mcpServers({
      schemas: {
        command: 'node',
        args: [path.join(FIXTURE_SERVERS, 'schemas.mjs')],
        env: { SCHEMAS_ARRAY: '1' },
      },
    });
    const result = await run(['-p', 'hi']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /HTTP 400: Invalid schema for function 'mcp_schemas_tags': In context=\('properties', 'tags'\), array schema missing items\. — the tool "tags" of MCP server schemas \(sent as mcp_schemas_tags\)/,
    );
  });

  it('an image from an MCP tool goes to the model as an input_image in the call output', async () => {
    await project.mcpServers({
      content: { command: 'node', args: [path.join(FIXTURE_SERVERS, 'content.mjs')] },
    });
    fake.push({ toolCalls: [{ name: 'mcp_content_image', arguments: '{}' }] }, { text: 'A pixel.' });
    const result = await run(['-p', 'show me', '--allow', 'mcp_content_image']);
    expect(result.code, result.stderr).toBe(0);
    expect(rejections()).toEqual([]);
    const [output] = ofType(fake.requests[1]!, 'function_call_output');
    expect(output!.output).toEqual([
      { type: 'input_text', text: 'a pixel:' },
      {
        type: 'input_image',
        image_url: expect.stringMatching(/^data:image\/png;base64,iVBOR/),
        detail: 'auto',
      },
    ]);
  });

  it('a failed response and an error event in the stream are reported with the server’s words', async () => {
    fake.push({ kind: 'failed', code: 'server_error', message: 'The model had an error.' });
    const failed = await run(['-p', 'hi']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('model request failed: The model had an error. (server_error)');

    fake.push({ kind: 'error_event', code: 'rate_limit_exceeded', message: 'Too many tokens in flight.' });
    const errored = await run(['-p', 'hi']);
    expect(errored.code).toBe(1);
    expect(errored.stderr).toContain(
      'model request failed: Too many tokens in flight. (rate_limit_exceeded)',
    );
  });

  it('an HTML page and a stalled stream are reported as such', async () => {
    fake.push({ kind: 'raw', status: 200, contentType: 'text/html', body: '<html>Sign in to Wi-Fi</html>' });
    const page = await run(['-p', 'hi']);
    expect(page.code).toBe(1);
    expect(page.stderr).toContain(`model endpoint ${fake.url} answered 200 with an HTML page`);

    fake.push({ kind: 'hang', afterText: 'thinking' });
    const stalled = await run(['-p', 'hi'], { GEEKAGENT_REQUEST_TIMEOUT: '0.5' });
    expect(stalled.code).toBe(1);
    expect(stalled.stderr).toContain(`model request timed out: no data for 0.5 s from ${fake.url}`);
  });
});
