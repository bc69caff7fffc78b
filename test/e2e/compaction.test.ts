/**
 * Compaction through the built CLI and the fake model, across print-mode runs of one session:
 * triggered by a small context window, by a large reported usage, and by `/compact <focus>`.
 * Each time the next request carries the summary and the last user message, and fits the window;
 * the session file still holds the whole transcript.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { userSessionsDir } from '../helpers/session-files.js';
import { cliFixture } from './harness.js';

const fx = cliFixture();

const run = async (args: string[], env: Record<string, string> = {}) => {
  const result = await fx.run(args, { env });
  expect(result.code, result.stderr).toBe(0);
  return result;
};

const isSummaryRequest = (request: RecordedRequest) =>
  String(request.body.messages[0]?.content).startsWith('You compact the conversation');
const tokensOf = (request: RecordedRequest) => Math.ceil(JSON.stringify(request.body).length / 4);

/** What the request carries after the system prompt. */
function afterSystemPrompt(request: RecordedRequest): string[] {
  return request.body.messages.slice(1).map((m) => `${m.role}:${String(m.content)}`);
}

function sessionText(): string {
  const dir = userSessionsDir(fx.project);
  const [file] = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  return readFileSync(path.join(dir, file!), 'utf8');
}

describe('compaction across runs', () => {
  it('a small GEEKAGENT_CONTEXT_WINDOW: the older turn is summarised before the next request', async () => {
    const env = { GEEKAGENT_CONTEXT_WINDOW: '4000' };
    fx.fake.push({ text: `Noted. ${'n'.repeat(2_000)}` });
    await run(['-p', `Remember the launch code ZEBRA-7. ${'x'.repeat(5_000)}`], env);
    fx.fake.push({ text: '## Goals and constraints\nThe launch code is ZEBRA-7.' }, { text: 'ZEBRA-7' });
    const second = await run(['-p', 'What is the launch code?', '--continue'], env);
    expect(second.stdout).toBe('ZEBRA-7\n');
    expect(second.stderr).toMatch(
      /context compacted: 2 earlier messages summarised \([\d,]+ → [\d,]+ tokens\)/,
    );
    expect(isSummaryRequest(fx.fake.requests[1]!)).toBe(true);
    const next = fx.fake.requests[2]!;
    expect(afterSystemPrompt(next)).toEqual([
      'system:[Summary of previous conversation]\n## Goals and constraints\nThe launch code is ZEBRA-7.',
      'user:What is the launch code?',
    ]);
    expect(tokensOf(next)).toBeLessThan(4_000);
    // Compaction is an event in the session file, not a rewrite: the first turn is still there.
    expect(sessionText()).toContain('Remember the launch code ZEBRA-7.');
  });

  it('a large reported usage: the provider’s count, not the characters, makes the next request compact first', async () => {
    // What the provider counted is far more than four characters a token would say.
    fx.fake.push({ text: 'Noted: blue.', usage: { prompt_tokens: 110_000, completion_tokens: 10 } });
    await run(['-p', `My favourite colour is blue. ${'b'.repeat(20_000)}`]);
    fx.fake.push({ text: 'The favourite colour is blue.' }, { text: 'Blue.' });
    const second = await run(['-p', 'Which colour?', '--continue']);
    expect(second.stdout).toBe('Blue.\n');
    expect(isSummaryRequest(fx.fake.requests[1]!)).toBe(true);
    expect(afterSystemPrompt(fx.fake.requests[2]!)).toEqual([
      'system:[Summary of previous conversation]\nThe favourite colour is blue.',
      'user:Which colour?',
    ]);
    expect(tokensOf(fx.fake.requests[2]!)).toBeLessThan(128_000);
  });

  it('/compact <focus> summarises now; the next request has the summary and the new message', async () => {
    fx.fake.push({ text: 'Edited src/a.ts.' }, { text: 'Edited src/b.ts.' });
    await run(['-p', 'edit a']);
    await run(['-p', 'edit b', '-c']);
    fx.fake.push({ text: 'Files touched: src/a.ts, src/b.ts.' });
    const compact = await run(['-p', '/compact keep the file names', '-c']);
    expect(compact.stdout).toMatch(/^context compacted: 4 earlier messages summarised/);
    const summarise = fx.fake.requests[2]!;
    expect(isSummaryRequest(summarise)).toBe(true);
    expect(String(summarise.body.messages[0]!.content)).toContain('focus on: keep the file names');
    expect(String(summarise.body.messages[1]!.content)).toContain('User: edit b');
    fx.fake.push({ text: 'Both files.' });
    await run(['-p', 'which files?', '-c']);
    expect(afterSystemPrompt(fx.fake.requests[3]!)).toEqual([
      'system:[Summary of previous conversation]\nFiles touched: src/a.ts, src/b.ts.',
      'user:which files?',
    ]);
  });
});
