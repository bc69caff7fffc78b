/**
 * Usage lines of a session file: files written before `Usage` had its own names carry the OpenAI
 * wire names (prompt_tokens …); replay reads both shapes, also mixed in one file, into today's.
 */
import { describe, expect, it } from 'vitest';
import { changeLine, headerLine, replay } from '../../../src/sessions/log.js';

const header = headerLine({ id: 'oldshape', created: '2026-01-01T00:00:00.000Z', cwd: '/tmp/p' });
const append = (id: string, role: 'user' | 'assistant', text: string) =>
  `${JSON.stringify({ t: 1, type: 'append', message: { id, role, text } })}\n`;

describe('session file usage lines', () => {
  it('an old-format line (prompt_tokens …) is read into inputTokens … and counted, not skipped', () => {
    const old = JSON.stringify({
      t: 2,
      type: 'usage',
      usage: { prompt_tokens: 1_200, completion_tokens: 30, total_tokens: 1_230, cached_tokens: 1_024 },
      requestChars: 4_800,
      afterId: 'u1',
    });
    const replayed = replay(
      `${header}${append('u1', 'user', 'hi')}${old}\n${append('a1', 'assistant', 'hello')}`,
    );
    expect(replayed.skipped).toBe(0);
    expect(replayed.turns).toBe(1);
    expect(replayed.state.totalUsage).toEqual({
      inputTokens: 1_200,
      outputTokens: 30,
      totalTokens: 1_230,
      cachedInputTokens: 1_024,
    });
    expect(replayed.state.tokensPerChar).toBe(0.25);
    expect(replayed.state.basis).toEqual({ promptTokens: 1_200, afterId: 'u1' });
  });

  it('new lines carry the neutral names; old and new lines in one file add up', () => {
    const line = changeLine(
      {
        type: 'usage',
        usage: { inputTokens: 500, outputTokens: 20, totalTokens: 520 },
        requestChars: 1_000,
        afterId: 'u2',
      },
      3,
    )!;
    expect(JSON.parse(line).usage).toEqual({ inputTokens: 500, outputTokens: 20, totalTokens: 520 });
    const old = JSON.stringify({
      t: 2,
      type: 'usage',
      usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 },
      requestChars: 400,
    });
    const replayed = replay(
      `${header}${append('u1', 'user', 'one')}${old}\n${append('u2', 'user', 'two')}${line}`,
    );
    expect(replayed.skipped).toBe(0);
    expect(replayed.turns).toBe(2);
    expect(replayed.state.totalUsage).toEqual({ inputTokens: 600, outputTokens: 25, totalTokens: 625 });
    expect(replayed.state.contextTokens).toBe(500);
  });

  it('a usage line in neither shape is skipped', () => {
    const bad = JSON.stringify({ t: 2, type: 'usage', usage: { input: 1 }, requestChars: 4 });
    expect(replay(`${header}${append('u1', 'user', 'hi')}${bad}\n`).skipped).toBe(1);
  });
});
