/**
 * Usage has neutral names inside GeekAgent (inputTokens …); what users read keeps its names: a
 * session file written with the earlier names (prompt_tokens …) resumes with its usage and turns,
 * and the sub-agent runs of the print JSON keep `usage.prompt_tokens …` as the README shows.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { userSessionsDir } from '../helpers/session-files.js';
import { cliFixture, parseJsonOutput } from './harness.js';

const fx = cliFixture();

const isSummaryRequest = (request: RecordedRequest) =>
  String(request.body.messages[0]?.content).startsWith('You compact the conversation');

/** A session file as GeekAgent wrote it before Usage had its own names. */
async function plantOldShapeSession(id: string): Promise<string> {
  const dir = userSessionsDir(fx.project);
  await mkdir(dir, { recursive: true });
  const lines = [
    { type: 'session', version: 1, id, created: '2026-01-01T00:00:00.000Z', cwd: fx.project.dir },
    {
      t: 1,
      type: 'append',
      message: { id: 'm1', role: 'user', text: `My favourite colour is blue.\n${'b'.repeat(20_000)}` },
    },
    {
      t: 2,
      type: 'usage',
      // What the provider counted: far more than the characters say, so only this line can make
      // the next request compact first.
      usage: { prompt_tokens: 110_000, completion_tokens: 10, total_tokens: 110_010, cached_tokens: 1_024 },
      requestChars: 30_000,
      afterId: 'm1',
    },
    { t: 3, type: 'append', message: { id: 'm2', role: 'assistant', text: 'Noted: blue.' } },
    { t: 4, type: 'append', message: { id: 'm3', role: 'user', text: 'And my cat is Tom.' } },
    { t: 5, type: 'append', message: { id: 'm4', role: 'assistant', text: 'Tom, noted.' } },
  ];
  const file = path.join(dir, `${id}.jsonl`);
  await writeFile(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return file;
}

describe('usage names', () => {
  it('a session file with the old usage names (prompt_tokens …) resumes with its turns and usage', async () => {
    const file = await plantOldShapeSession('oldusage');
    // Every line read (none skipped), both turns counted.
    const opened = await fx.run(['-p', '/open oldusage']);
    expect(opened.stdout, opened.stderr).toContain('opened session oldusage (2 turns)\n');
    expect(opened.stdout).not.toContain('skipped');

    // The carried-over usage (110k input tokens) makes the next request compact first.
    fx.fake.push({ text: 'Colour blue, cat Tom.' }, { text: 'Blue.' });
    const resumed = await fx.run(['-p', 'Which colour?', '--resume', 'oldusage', '--output-format', 'json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const out = parseJsonOutput(resumed) as ReturnType<typeof parseJsonOutput> & { session_id: string };
    expect(out.result).toBe('Blue.');
    expect(out.session_id).toBe('oldusage');
    expect(fx.fake.requests).toHaveLength(2);
    expect(isSummaryRequest(fx.fake.requests[0]!)).toBe(true);
    // The new turn's usage line is written in today's names beside the old one.
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('"prompt_tokens":110000');
    expect(text).toMatch(/"type":"usage","usage":\{"inputTokens":\d+,"outputTokens":\d+,"totalTokens":\d+/);
    const list = await fx.run(['-p', '/sessions']);
    expect(list.stdout).toMatch(/^ {2}oldusage .* 3 turns {2}My favourite colour is blue\./m);
  });

  it('the print JSON keeps its documented usage names, for the turn and for each sub-agent run', async () => {
    fx.fake.push(
      {
        toolCalls: [{ name: 'delegate_task', arguments: JSON.stringify({ task: 'Say hi' }) }],
        usage: { prompt_tokens: 1_000, completion_tokens: 10, cached_tokens: 600 },
      },
      { text: 'done', usage: { prompt_tokens: 1_200, completion_tokens: 5 } },
    );
    fx.fake.pushFor('explore', {
      text: 'hi',
      usage: { prompt_tokens: 300, completion_tokens: 7, cached_tokens: 200 },
    });
    const result = await fx.run(['-p', 'delegate', '--output-format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const out = parseJsonOutput(result) as ReturnType<typeof parseJsonOutput> & {
      agents: Array<{ usage: Record<string, number> }>;
    };
    expect(out.usage).toEqual({
      prompt_tokens: 2_200,
      completion_tokens: 15,
      total_tokens: 2_215,
      cached_tokens: 600,
      input_tokens: 1_600,
      output_tokens: 15,
      cache_read_input_tokens: 600,
      cache_creation_input_tokens: 0,
    });
    expect(out.agents[0]!.usage).toEqual({
      prompt_tokens: 300,
      completion_tokens: 7,
      total_tokens: 307,
      cached_tokens: 200,
    });
  });
});
