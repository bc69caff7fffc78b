/**
 * An answer the provider cut (output token limit, refusal, content filter) through the built CLI,
 * for each provider — scripted by the fakes and replayed byte for byte from the recorded API
 * streams in test/fixtures/recorded/: the text that came is kept, stderr says it was cut and why,
 * JSON and stream-json carry `stop_reason` and a non-success subtype, print mode exits 3, a tool
 * call in a cut reply never runs (and the model is told next time), a refused exchange leaves the
 * conversation, a sub-agent's cut answer reaches the parent marked as cut, ACP gets `max_tokens`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { startFakeGemini } from '../fixtures/fake-gemini.js';
import { startFakeResponses } from '../fixtures/fake-responses.js';
import { type Replay, startReplay } from '../fixtures/replay-server.js';
import { editorFixture } from './acp-client.js';
import { cliFixture, type RunResult, runCli, toolMessages } from './harness.js';

const fx = cliFixture();
const editor = editorFixture(fx);

interface ResultJson {
  type: string;
  subtype: string;
  is_error: boolean;
  exit_reason: string;
  stop_reason: string | null;
  result: string;
  errors?: string[];
  tool_calls: Array<{ name: string; decision: string; result: string; is_error: boolean }>;
  usage: { completion_tokens: number };
}

const json = (run: RunResult): ResultJson => {
  try {
    return JSON.parse(run.stdout) as ResultJson;
  } catch {
    throw new Error(`stdout is not one JSON object:\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
};
/** A JSON run whose answer was cut: exit status 3 and a result with these fields. */
const expectCut = (run: RunResult, fields: Partial<ResultJson>): ResultJson => {
  expect(run.code, run.stderr).toBe(3);
  const out = json(run);
  expect(out).toMatchObject({ type: 'result', is_error: true, exit_reason: 'cut', ...fields });
  return out;
};
const call = (name: string, args: string) => ({ name, arguments: args });
/** The write a reply cut mid-arguments asked for: its JSON stops inside the content. */
const CUT_WRITE = '{"path":"notes.md","content":"# Meeting notes\\n\\n- Bu';

const LIMIT_LINE = 'geekagent: the answer was cut off: the model reached its output token limit';

describe('an answer cut by the provider (Chat Completions fake)', () => {
  it('text output: the text that came on stdout, one line on stderr saying why, exit 3', async () => {
    fx.fake.push({ text: 'Once upon a time, in a small village', finishReason: 'length' });
    const run = await fx.run(['-p', 'tell me a long story']);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout).toBe('Once upon a time, in a small village\n');
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('geekagent: '));
    expect(lines).toEqual([`${LIMIT_LINE} (finish_reason: length). The text shown is all that arrived.`]);
  });

  it('JSON: stop_reason and a non-success subtype; a whole answer still says success and end_turn', async () => {
    fx.fake.push({ text: 'cut here', finishReason: 'length' }, { text: 'All of it.' });
    const cut = await fx.run(['-p', 'long', '--output-format', 'json']);
    expectCut(cut, {
      type: 'result',
      subtype: 'error_max_tokens',
      is_error: true,
      exit_reason: 'cut',
      stop_reason: 'max_tokens',
      result: 'cut here',
      errors: [expect.stringContaining('the model reached its output token limit (finish_reason: length)')],
    });
    expect(cut.stderr).toContain(`${LIMIT_LINE} (finish_reason: length)`);
    const whole = await fx.run(['-p', 'short', '--output-format', 'json']);
    expect(whole.code, whole.stderr).toBe(0);
    expect(json(whole)).toMatchObject({ subtype: 'success', is_error: false, stop_reason: 'end_turn' });
  });

  it('content_filter: error_content_filter, the filtered text kept', async () => {
    fx.fake.push({ text: 'Here is the first part', finishReason: 'content_filter' });
    const run = await fx.run(['-p', 'lyrics', '--output-format', 'json']);
    expectCut(run, {
      subtype: 'error_content_filter',
      stop_reason: 'content_filter',
      result: 'Here is the first part',
    });
    expect(run.stderr).toContain(
      'geekagent: the answer was cut off: the provider’s content filter stopped it (finish_reason: content_filter)',
    );
  });

  it('a tool call whose arguments were cut is never run, even allowed; the model is told on the next turn', async () => {
    fx.fake.push({ text: 'Writing.', toolCalls: [call('write', CUT_WRITE)], finishReason: 'length' });
    const run = await fx.run(['-p', 'write the notes', '--output-format', 'json', '--allow', 'write']);
    expect(run.code, run.stderr).toBe(3);
    expect(existsSync(path.join(fx.project.dir, 'notes.md'))).toBe(false);
    // One request: the turn ended with the cut reply, nothing was sent back for it.
    expect(fx.fake.requests).toHaveLength(1);
    const out = json(run);
    expect(out).toMatchObject({ subtype: 'error_max_tokens', result: 'Writing.' });
    expect(out.tool_calls).toEqual([
      expect.objectContaining({ name: 'write', decision: 'deny', is_error: true }),
    ]);
    expect(out.tool_calls[0]?.result).toMatch(/^not run: the reply was cut off/);
    expect(run.stderr).toContain('Its tool call was not run (the arguments may be incomplete).');

    fx.fake.push({ text: 'Sending it in parts.' });
    const next = await fx.run(['-p', 'go on', '--continue']);
    expect(next.code, next.stderr).toBe(0);
    const told = toolMessages(fx.fake.requests[1]!.body);
    expect(told).toEqual([expect.stringMatching(/^not run: the reply was cut off .*finish_reason: length/)]);
  });

  it('stream-json: a notice line, the result with stop_reason and error_max_tokens, exit 3', async () => {
    fx.fake.push({ text: 'partial', finishReason: 'length' });
    const run = await fx.run(['-p', 'long', '--output-format', 'stream-json']);
    expect(run.code, run.stderr).toBe(3);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const notice = lines.find((line) => line.type === 'system' && line.subtype === 'notice');
    expect(String(notice?.message)).toContain(
      'the model reached its output token limit (finish_reason: length)',
    );
    expect(lines.at(-1)).toMatchObject({
      type: 'result',
      subtype: 'error_max_tokens',
      is_error: true,
      stop_reason: 'max_tokens',
      result: 'partial',
    });
  });

  it('a sub-agent whose answer was cut: the parent is told it is incomplete', async () => {
    fx.fake.push(
      {
        toolCalls: [call('delegate_task', JSON.stringify({ task: 'summarise the repo', agent: 'explore' }))],
      },
      (request) => ({ text: `parent saw: ${toolMessages(request.body).join(' | ')}` }),
    );
    fx.fake.pushFor('explore', { text: 'The repo has three parts: the', finishReason: 'length' });
    const run = await fx.run(['-p', 'delegate', '--output-format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const out = json(run) as ResultJson & { agents: Array<{ status: string; stop_reason: string }> };
    expect(out.result).toContain('· cut off]');
    expect(out.result).toContain('The repo has three parts: the');
    expect(out.result).toContain(
      "(this answer is incomplete: the sub-agent's reply was cut off — the model reached its output token limit (finish_reason: length))",
    );
    expect(out.agents).toEqual([expect.objectContaining({ status: 'cut', stop_reason: 'max_tokens' })]);
  });

  it('ACP: the prompt answers max_tokens, and the text that came is there', async () => {
    fx.fake.push({ text: 'Once upon a', finishReason: 'length' });
    const ed = editor();
    await ed.initialize();
    const id = await ed.newSession();
    expect(await ed.prompt(id, 'story')).toBe('max_tokens');
    expect(ed.text(id)).toContain('Once upon a');
    expect(ed.text(id)).toContain('the model reached its output token limit (finish_reason: length)');
  });
});

describe('an answer cut by the provider (the other providers’ fakes)', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('Anthropic refusal: error_refusal, the text kept, and the refused exchange is not sent again', async () => {
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.push({ text: 'Sure, here is an overview of the', stopReason: 'refusal' }, { text: 'Hello.' });
    const env = {
      GEEKAGENT_PROVIDER: 'anthropic',
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
      ANTHROPIC_MODEL: 'claude-sonnet-4-5',
    };
    const run = await fx.run(['-p', 'the forbidden question', '--output-format', 'json'], { env });
    expectCut(run, {
      subtype: 'error_refusal',
      stop_reason: 'refusal',
      result: 'Sure, here is an overview of the',
    });
    expect(run.stderr).toContain(
      'geekagent: the answer was stopped: the model declined to continue (stop_reason: refusal). The text shown is all that arrived. This exchange is left out of the conversation.',
    );
    const next = await fx.run(['-p', 'hello', '--continue'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.stringify(fake.requests[1]?.body.messages)).not.toContain('forbidden question');
  });

  it('Gemini MAX_TOKENS: the text kept, error_max_tokens, exit 3', async () => {
    const fake = await startFakeGemini();
    closers.push(() => fake.close());
    fake.push({ text: 'The first half of the', finishReason: 'MAX_TOKENS' });
    const run = await fx.run(['-p', 'long', '--output-format', 'json'], {
      env: {
        GEEKAGENT_PROVIDER: 'gemini',
        GOOGLE_GEMINI_BASE_URL: fake.url,
        GEMINI_API_KEY: 'test-key',
        GEMINI_MODEL: 'gemini-2.5-flash',
      },
    });
    expectCut(run, {
      subtype: 'error_max_tokens',
      stop_reason: 'max_tokens',
      result: 'The first half of the',
    });
    expect(run.stderr).toContain(`${LIMIT_LINE} (finishReason: MAX_TOKENS)`);
  });

  it('Responses incomplete: the text and a cut function call kept, the call not run', async () => {
    const fake = await startFakeResponses();
    closers.push(() => fake.close());
    fake.push({
      kind: 'incomplete',
      reason: 'max_output_tokens',
      text: 'Writing the notes.',
      toolCalls: [{ name: 'write', arguments: CUT_WRITE }],
    });
    const run = await fx.run(['-p', 'notes', '--output-format', 'json', '--allow', 'write'], {
      modelUrl: fake.url,
      env: { GEEKAGENT_PROVIDER: 'openai-responses', OPENAI_MODEL: 'gpt-5-mini' },
    });
    expect(run.code, run.stderr).toBe(3);
    expect(existsSync(path.join(fx.project.dir, 'notes.md'))).toBe(false);
    const out = json(run);
    expect(out).toMatchObject({
      subtype: 'error_max_tokens',
      stop_reason: 'max_tokens',
      result: 'Writing the notes.',
    });
    expect(out.tool_calls).toEqual([expect.objectContaining({ name: 'write', decision: 'deny' })]);
    expect(run.stderr).toContain(`${LIMIT_LINE} (incomplete_details.reason: max_output_tokens)`);
  });
});

describe('cut answers replayed byte for byte from the recorded API streams', () => {
  let replay: Replay | undefined;
  afterEach(async () => {
    await replay?.close();
    replay = undefined;
  });
  const replayed = async (files: string[], args: string[], env: Record<string, string>) => {
    replay = await startReplay(files);
    return runCli(['-p', ...args], {
      project: fx.project,
      modelUrl: `${replay.origin}/v1`,
      env: {
        ANTHROPIC_BASE_URL: replay.origin,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_MODEL: 'claude-sonnet-4-5',
        GOOGLE_GEMINI_BASE_URL: replay.origin,
        GEMINI_API_KEY: 'test-key',
        GEMINI_MODEL: 'gemini-2.5-flash',
        ...env,
      },
    });
  };

  it('Chat Completions (DeepSeek) finish_reason "length": text, usage and exit 3', async () => {
    const run = await replayed(['chat-deepseek-length.sse'], ['story', '--output-format', 'json'], {
      OPENAI_MODEL: 'deepseek-chat',
    });
    const out = expectCut(run, {
      subtype: 'error_max_tokens',
      stop_reason: 'max_tokens',
      result: 'Once upon a time, in a small village by the sea, there lived an',
    });
    expect(out.usage.completion_tokens).toBe(16);
  });

  it('Chat Completions (OpenAI) "length" inside a tool call: nothing written', async () => {
    const run = await replayed(['chat-openai-length-tool-call.sse'], ['notes', '--allow', 'write'], {});
    expect(run.code, run.stderr).toBe(3);
    expect(existsSync(path.join(fx.project.dir, 'notes.md'))).toBe(false);
    expect(run.stderr).toContain(`${LIMIT_LINE} (finish_reason: length)`);
    expect(run.stderr).toContain('Its tool call was not run');
  });

  it('Chat Completions (OpenAI) content_filter', async () => {
    const run = await replayed(['chat-openai-content-filter.sse'], ['lyrics', '--output-format', 'json'], {});
    expectCut(run, {
      subtype: 'error_content_filter',
      result: 'Here is the first part of the lyrics:',
    });
  });

  it('Anthropic stop_reason max_tokens, in text and inside a tool_use block', async () => {
    const env = { GEEKAGENT_PROVIDER: 'anthropic' };
    const text = await replayed(['anthropic-max-tokens.sse'], ['story', '--output-format', 'json'], env);
    expectCut(text, {
      subtype: 'error_max_tokens',
      stop_reason: 'max_tokens',
      result: 'Once upon a time, in a small village by the sea, there lived an',
    });
    await replay?.close();
    const tool = await replayed(['anthropic-max-tokens-tool-use.sse'], ['notes', '--allow', 'write'], env);
    expect(tool.code, tool.stderr).toBe(3);
    expect(tool.stdout).toBe("I'll write the notes file now.\n");
    expect(existsSync(path.join(fx.project.dir, 'notes.md'))).toBe(false);
    expect(tool.stderr).toContain(`${LIMIT_LINE} (stop_reason: max_tokens)`);
  });

  it('Anthropic stop_reason refusal', async () => {
    const run = await replayed(['anthropic-refusal.sse'], ['q', '--output-format', 'json'], {
      GEEKAGENT_PROVIDER: 'anthropic',
    });
    expectCut(run, {
      subtype: 'error_refusal',
      stop_reason: 'refusal',
      result: 'Sure, here is an overview of the',
    });
  });

  it('Gemini finishReason MAX_TOKENS', async () => {
    const run = await replayed(['gemini-max-tokens.sse'], ['story', '--output-format', 'json'], {
      GEEKAGENT_PROVIDER: 'gemini',
    });
    expectCut(run, {
      subtype: 'error_max_tokens',
      result: 'Once upon a time, in a small village by the sea, there lived an',
    });
    expect(replay?.requests[0]?.path).toContain(':streamGenerateContent');
  });

  it('Responses response.incomplete (max_output_tokens): the text is kept, not thrown away', async () => {
    const run = await replayed(
      ['responses-incomplete-max-output-tokens.sse'],
      ['story', '--output-format', 'json'],
      { GEEKAGENT_PROVIDER: 'openai-responses', OPENAI_MODEL: 'gpt-4.1-mini' },
    );
    const out = expectCut(run, {
      subtype: 'error_max_tokens',
      stop_reason: 'max_tokens',
      result: 'Once upon a time, in a small village by the sea, there lived an',
    });
    expect(out.usage.completion_tokens).toBe(16);
  });
});
