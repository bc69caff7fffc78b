/**
 * GEEKAGENT_PROVIDER=gemini through the built CLI in print mode, against the fake Gemini API
 * (test/fixtures/fake-gemini.ts), which refuses what the real API refuses: tool rounds whose thought
 * signatures come back unchanged, parallel calls, server-everything's tool set through the fake's
 * schema checks, a tool whose schema cannot be converted left out with a note, a bad key naming
 * GEMINI_API_KEY, 429 retried after the server's delay, an overflow compacting, MCP images as
 * inlineData.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGemini, type GeminiRequest, startFakeGemini } from '../fixtures/fake-gemini.js';
import type { GeminiContentIn } from '../fixtures/fake-gemini-checks.js';
import { startFakeModel } from '../fixtures/fake-model.js';
import {
  createProject,
  FIXTURE_SERVERS,
  type Project,
  parseJsonOutput,
  REPO_ROOT,
  runCli,
} from './harness.js';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let project: Project;
let fake: FakeGemini;
beforeEach(async () => {
  project = await createProject();
  fake = await startFakeGemini();
});
afterEach(async () => {
  await fake.close();
  await project.cleanup();
});

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, {
    project,
    env: {
      GEEKAGENT_PROVIDER: 'gemini',
      GOOGLE_GEMINI_BASE_URL: fake.url,
      GEMINI_API_KEY: 'test-key',
      GEMINI_MODEL: 'gemini-3-pro-preview',
      ...env,
    },
  });

const partsOf = (request: GeminiRequest | undefined): GeminiContentIn[] => request?.body.contents ?? [];
const refusals = () => fake.requests.flatMap((request) => (request.refused ? [request.refused] : []));

describe('gemini provider: tool rounds', () => {
  it('a tool round streams thoughts and text, sends the thought signature back on its call', async () => {
    await project.write('notes.txt', 'the secret word is PAPAYA\n');
    fake.push(
      {
        reasoning: 'I should read the file.',
        toolCalls: [{ name: 'read', arguments: '{"path":"notes.txt"}' }],
        thoughtSignature: 'sig-round-one',
      },
      { text: 'The word is PAPAYA.', cachedTokens: 40, usage: { prompt_tokens: 100, completion_tokens: 7 } },
    );
    const result = await run(['-p', 'what is the word?', '--output-format', 'json', '--allow', 'read']);
    expect(result.code, result.stderr).toBe(0);
    expect(refusals()).toEqual([]);
    const output = parseJsonOutput(result);
    expect(output.result).toBe('The word is PAPAYA.');
    expect(output.tool_calls).toMatchObject([{ name: 'read', is_error: false }]);
    expect(output.usage.completion_tokens).toBeGreaterThanOrEqual(7);

    const [first, second] = fake.requests;
    expect(first?.path).toContain(':streamGenerateContent?alt=sse');
    expect(first?.model).toBe('gemini-3-pro-preview');
    expect(first?.headers['user-agent']).toMatch(/^GeekAgent\/\d+\.\d+\.\d+\S* google-genai$/);
    expect(first?.body.systemInstruction?.parts?.[0]?.text).toContain('GeekAgent');
    expect(first?.body.generationConfig).toEqual({ thinkingConfig: { includeThoughts: true } });
    const contents = partsOf(second);
    expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    const call = contents[1]?.parts?.find((part) => part.functionCall);
    expect(call).toMatchObject({
      functionCall: { name: 'read', args: { path: 'notes.txt' } },
      thoughtSignature: 'sig-round-one',
    });
    const answer = contents[2]?.parts?.[0]?.functionResponse;
    expect(answer?.name).toBe('read');
    expect(JSON.stringify(answer?.response)).toContain('PAPAYA');
  });

  it('parallel calls with Gemini ids: every call answered by name and id in one user turn', async () => {
    await project.write('a.txt', 'AAA\n');
    await project.write('b.txt', 'BBB\n');
    fake.push(
      {
        toolCalls: [
          { name: 'read', arguments: '{"path":"a.txt"}', id: 'gm-1' },
          { name: 'read', arguments: '{"path":"b.txt"}', id: 'gm-2' },
          { name: 'get_current_time', arguments: '{}', id: 'gm-3' },
        ],
      },
      { text: 'read both' },
    );
    const result = await run([
      '-p',
      'read both',
      '--output-format',
      'json',
      '--allow',
      'read,get_current_time',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(refusals()).toEqual([]);
    expect(parseJsonOutput(result).tool_calls.map((call) => call.is_error)).toEqual([false, false, false]);
    const contents = partsOf(fake.requests[1]);
    expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    const responses = contents[2]?.parts?.map((part) => part.functionResponse);
    expect(responses?.map((r) => `${r?.name}:${r?.id}`)).toEqual([
      'read:gm-1',
      'read:gm-2',
      'get_current_time:gm-3',
    ]);
  });
});

describe('gemini provider: a session that switches provider', () => {
  it('continues an OpenAI session on Gemini: the earlier call turn goes with the skip signature, answered by name', async () => {
    await project.write('notes.txt', 'KIWI\n');
    const chat = await startFakeModel([
      { toolCalls: [{ name: 'read', arguments: '{"path":"notes.txt"}', id: 'call_openai_1' }] },
      { text: 'It says KIWI.' },
    ]);
    try {
      const first = await runCli(['-p', 'read notes', '--allow', 'read'], { project, modelUrl: chat.url });
      expect(first.code, first.stderr).toBe(0);
    } finally {
      await chat.close();
    }
    fake.push({ text: 'Still KIWI.' });
    const result = await run(['-p', 'and now?', '--continue']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Still KIWI.\n');
    expect(refusals()).toEqual([]);
    const contents = partsOf(fake.requests[0]);
    expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect(contents[1]?.parts?.[0]).toEqual({
      functionCall: { name: 'read', args: { path: 'notes.txt' } },
      thoughtSignature: 'skip_thought_signature_validator',
    });
    // OpenAI's call id is not Gemini's: the response answers by name only.
    expect(contents[2]?.parts?.[0]?.functionResponse).toMatchObject({ name: 'read' });
    expect(contents[2]?.parts?.[0]?.functionResponse?.id).toBeUndefined();
  });
});

describe('gemini provider: tool schemas', () => {
  it("server-everything's tools pass the API's schema checks and can be called", async () => {
    await project.mcpServers({ everything: { command: 'node', args: [EVERYTHING, 'stdio'] } });
    fake.push(
      { toolCalls: [{ name: 'mcp_everything_echo', arguments: '{"message":"hello gemini"}' }] },
      { text: 'echoed' },
    );
    const result = await run(['-p', 'echo', '--output-format', 'json', '--allow', 'mcp_everything_*']);
    expect(result.code, result.stderr).toBe(0);
    expect(refusals()).toEqual([]);
    const declarations = fake.requests[0]?.body.tools?.[0]?.functionDeclarations ?? [];
    const names = declarations.map((declaration) => (declaration as { name: string }).name);
    expect(names).toEqual(expect.arrayContaining(['mcp_everything_echo', 'read']));
    expect(names.filter((name) => name.startsWith('mcp_everything_')).length).toBeGreaterThan(5);
    expect(parseJsonOutput(result).tool_calls[0]?.result).toContain('hello gemini');
  });

  it('a tool whose schema cannot be converted is left out with a note naming server and tool', async () => {
    await project.mcpServers({
      odd: { command: process.execPath, args: [path.join(FIXTURE_SERVERS, 'gemini-odd-schemas.mjs')] },
    });
    fake.push({ toolCalls: [{ name: 'get_current_time', arguments: '{}' }] }, { text: 'fine' });
    const result = await run(['-p', 'hello', '--allow', 'get_current_time']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('fine\n');
    const note = 'tool "wide_form" of MCP server "odd" (mcp_odd_wide_form) is left out of requests to Gemini';
    expect(result.stderr).toContain(`${note}: its input schema expands to more than 5000 subschemas`);
    // Said once for the session, though both requests left it out.
    expect(result.stderr.split(note).length - 1).toBe(1);
    expect(fake.requests).toHaveLength(2);
    expect(refusals()).toEqual([]);
    const names = (fake.requests[0]?.body.tools?.[0]?.functionDeclarations ?? []).map(
      (d) => (d as { name: string }).name,
    );
    expect(names).toContain('mcp_odd_recursive_tree');
    expect(names).not.toContain('mcp_odd_wide_form');
  });
});

describe('gemini provider: errors', () => {
  it('a wrong key: the 400 names GEMINI_API_KEY and never shows the key', async () => {
    const key = 'AIzaWRONG-key-0123456789';
    const result = await run(['-p', 'hi'], { GEMINI_API_KEY: key });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('API key not valid');
    expect(result.stderr).toContain('check GEMINI_API_KEY');
    expect(result.stderr).not.toContain(key);
    expect(fake.requests[0]?.headers['x-goog-api-key']).toBe(key);
  });

  it('a 403 names GEMINI_API_KEY', async () => {
    fake.push({
      kind: 'http_error',
      status: 403,
      message: 'Permission denied: Consumer has been suspended.',
    });
    const result = await run(['-p', 'hi']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/HTTP 403 PERMISSION_DENIED: Permission denied.*check GEMINI_API_KEY/);
  });

  it('429 RESOURCE_EXHAUSTED is retried after the RetryInfo delay (GEEKAGENT_MAX_RETRIES=1)', async () => {
    fake.push(
      {
        kind: 'http_error',
        status: 429,
        message: 'Resource has been exhausted (e.g. check quota).',
        retryDelay: '0.4s',
      },
      { text: 'second time lucky' },
    );
    const result = await run(['-p', 'hi'], { GEEKAGENT_MAX_RETRIES: '1' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('second time lucky\n');
    expect(fake.requests).toHaveLength(2);
    const [first, second] = fake.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(390);
  });

  it('an HTML page names GOOGLE_GEMINI_BASE_URL', async () => {
    fake.push({
      kind: 'raw',
      status: 200,
      contentType: 'text/html',
      body: '<html><body>Sign in to Wi-Fi</body></html>',
    });
    const result = await run(['-p', 'hi']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('HTML page');
    expect(result.stderr).toContain('check GOOGLE_GEMINI_BASE_URL');
  });

  it('"input token count exceeds the maximum" compacts the conversation and sends it again', async () => {
    fake.push({ text: 'first answer' });
    // Big enough that the overflow's target (60% of the request) leaves it out of the verbatim part.
    expect((await run(['-p', `remember ZEBRA-7 ${'x'.repeat(20_000)}`])).code).toBe(0);
    fake.push(
      {
        kind: 'http_error',
        status: 400,
        message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
      },
      { text: '## Summary\nThe code is ZEBRA-7.' },
      { text: 'ZEBRA-7' },
    );
    const result = await run(['-p', 'what is the code?', '--continue']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('ZEBRA-7\n');
    expect(result.stderr).toMatch(/context compacted/);
    const last = fake.requests.at(-1);
    expect(partsOf(last)[0]?.parts?.[0]?.text).toMatch(/^\[Summary of previous conversation\]/);
    expect(refusals()).toEqual([]);
  });
});

describe('gemini provider: errors naming what to fix', () => {
  it('a reply Gemini stopped for SAFETY says so', async () => {
    fake.push({ finishReason: 'SAFETY' });
    const result = await run(['-p', 'hi']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'model request failed: the reply was blocked by Gemini’s safety filters (Gemini finishReason SAFETY)',
    );
  });

  it('a 400 about a function declaration names the MCP server and tool', async () => {
    await project.mcpServers({
      odd: { command: process.execPath, args: [path.join(FIXTURE_SERVERS, 'gemini-odd-schemas.mjs')] },
    });
    fake.push((request) => {
      const names = (request.body.tools?.[0]?.functionDeclarations ?? []).map(
        (d) => (d as { name: string }).name,
      );
      const index = names.indexOf('mcp_odd_recursive_tree');
      return {
        kind: 'http_error',
        status: 400,
        message: `* GenerateContentRequest.tools[0].function_declarations[${index}].parameters.properties: too many states for serving`,
      };
    });
    const result = await run(['-p', 'hi']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'too many states for serving (Gemini refused the schema of tool "recursive_tree" of MCP server "odd" (mcp_odd_recursive_tree))',
    );
  });

  it('a stream that stalls ends after GEEKAGENT_REQUEST_TIMEOUT, naming it', async () => {
    fake.push({ kind: 'hang', afterText: 'partial ' });
    const result = await run(['-p', 'hi'], { GEEKAGENT_REQUEST_TIMEOUT: '1' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      `model request timed out: no data for 1 s from ${fake.url} (GEEKAGENT_REQUEST_TIMEOUT)`,
    );
  });
});

describe('gemini provider: loading', () => {
  const WATCH = path.join(REPO_ROOT, 'test', 'fixtures', 'modules', 'watch.mjs');
  const watched = (log: string) => ({ NODE_OPTIONS: `--import=${WATCH}`, MODULE_LOG: log });
  const packages = (log: string) =>
    existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];

  it('a gemini run loads the genai SDK and not openai; an openai run does not load genai', async () => {
    const geminiLog = path.join(project.home, 'gemini-modules.log');
    fake.push({ text: 'from gemini' });
    const gemini = await run(['-p', 'hi'], watched(geminiLog));
    expect(gemini.stdout).toBe('from gemini\n');
    expect(packages(geminiLog)).toContain('@google/genai');
    expect(packages(geminiLog)).not.toContain('openai');

    const chat = await startFakeModel([{ text: 'from openai' }]);
    try {
      const openaiLog = path.join(project.home, 'openai-modules.log');
      const openai = await runCli(['-p', 'hi'], { project, modelUrl: chat.url, env: watched(openaiLog) });
      expect(openai.stdout).toBe('from openai\n');
      expect(packages(openaiLog)).toContain('openai');
      expect(packages(openaiLog)).not.toContain('@google/genai');
    } finally {
      await chat.close();
    }
  });
});

describe('gemini provider: media', () => {
  it('an MCP image goes back as an inlineData part after the function response', async () => {
    await project.mcpServers({
      content: { command: process.execPath, args: [path.join(FIXTURE_SERVERS, 'content.mjs')] },
    });
    fake.push({ toolCalls: [{ name: 'mcp_content_image', arguments: '{}' }] }, { text: 'a pixel' });
    const result = await run(['-p', 'show', '--allow', 'mcp_content_*']);
    expect(result.code, result.stderr).toBe(0);
    expect(refusals()).toEqual([]);
    const turn = partsOf(fake.requests[1])[2];
    expect(turn?.parts?.[0]?.functionResponse?.name).toBe('mcp_content_image');
    const image = turn?.parts?.find((part) => part.inlineData);
    expect(image?.inlineData?.mimeType).toBe('image/png');
    expect(image?.inlineData?.data).toMatch(/^iVBOR/);
  });
});
