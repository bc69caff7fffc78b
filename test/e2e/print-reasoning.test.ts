/**
 * Print mode and the model's reasoning (issue 19): the JSON output carries the turn's reasoning,
 * every round's, while text output stays the answer alone.
 */
import { describe, expect, it } from 'vitest';
import { cliFixture, parseJsonOutput } from './harness.js';

const fx = cliFixture();

describe('print mode with a thinking model', () => {
  it('JSON gains "reasoning" for the turn; text output is the answer only', async () => {
    fx.fake.push(
      { reasoning: 'I should list the folder.', toolCalls: [{ name: 'ls', arguments: '{"path":"."}' }] },
      { reasoning: 'Now I can answer.', text: 'Two files.' },
      { reasoning: 'Plain thought.', text: 'Plain answer.' },
    );
    const json = await fx.run(['-p', 'what is here', '--output-format', 'json', '--allow', 'ls']);
    expect(json.code, json.stderr).toBe(0);
    const out = parseJsonOutput(json) as unknown as { result: string; reasoning: string };
    expect(out.result).toBe('Two files.');
    expect(out.reasoning).toBe('I should list the folder.\n\nNow I can answer.');

    const text = await fx.run(['-p', 'hi']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe('Plain answer.\n');
    expect(text.stdout + text.stderr).not.toContain('Plain thought');
  });
});
