import { describe, expect, it } from 'vitest';
import { convertCallToolResult, estimateTokens } from '../../../src/mcp/results.js';
import { createRedactor } from '../../../src/permissions/redact.js';

const text = { maxResultTokens: 25_000, acceptsMedia: false };
const media = { maxResultTokens: 25_000, acceptsMedia: true };
const PNG = Buffer.alloc(2048, 1).toString('base64');

describe('estimateTokens', () => {
  it('is characters / 4 rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });
});

describe('convertCallToolResult', () => {
  it('joins text parts with newlines', () => {
    const result = convertCallToolResult(
      {
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      text,
    );
    expect(result).toEqual({ output: 'one\ntwo', isError: false });
  });

  it('keeps images and audio as parts when media is accepted', () => {
    const result = convertCallToolResult(
      {
        content: [
          { type: 'text', text: 'see' },
          { type: 'text', text: 'this' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'text', text: 'end' },
        ],
      },
      media,
    );
    expect(result.output).toEqual([
      { type: 'text', text: 'see\nthis' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      { type: 'text', text: 'end' },
    ]);
  });

  it('replaces media with a placeholder when the model cannot take it', () => {
    const result = convertCallToolResult(
      {
        content: [
          { type: 'text', text: 'shot:' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
        ],
      },
      text,
    );
    expect(result.output).toBe('shot:\n[image: image/png, 2.0 KB]');
  });

  it('renders embedded resources with their text or blob size', () => {
    const result = convertCallToolResult(
      {
        content: [
          { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' } },
          {
            type: 'resource',
            resource: { uri: 'file:///b.bin', mimeType: 'application/pdf', blob: 'AAAAAA==' },
          },
        ],
      },
      text,
    );
    expect(result.output).toBe(
      '[resource file:///a.txt]\nhello\n[resource file:///b.bin: application/pdf, 4 bytes]',
    );
  });

  it('renders resource links with their description', () => {
    const result = convertCallToolResult(
      {
        content: [
          { type: 'resource_link', name: 'readme', uri: 'file:///README.md', description: 'Project readme' },
          { type: 'resource_link', name: 'logo', uri: 'file:///logo.png' },
        ],
      },
      text,
    );
    expect(result.output).toBe(
      '[resource link: readme file:///README.md] Project readme\n[resource link: logo file:///logo.png]',
    );
  });

  it('names unknown part types', () => {
    expect(convertCallToolResult({ content: [{ type: 'hologram', data: 1 }] }, text).output).toBe(
      '[hologram content]',
    );
  });

  it('uses structuredContent as JSON when there is no text part', () => {
    const structured = { temperature: 21.5, unit: 'C' };
    expect(convertCallToolResult({ content: [], structuredContent: structured }, text).output).toBe(
      JSON.stringify(structured),
    );
    expect(
      convertCallToolResult(
        { content: [{ type: 'text', text: '21.5 C' }], structuredContent: structured },
        text,
      ).output,
    ).toBe('21.5 C');
  });

  it('says (no content) for an empty result', () => {
    expect(convertCallToolResult({ content: [] }, text).output).toBe('(no content)');
    expect(convertCallToolResult({ content: [{ type: 'text', text: '' }] }, text).output).toBe(
      '(no content)',
    );
    expect(convertCallToolResult({}, text).output).toBe('(no content)');
  });

  it('passes isError through', () => {
    const result = convertCallToolResult(
      { content: [{ type: 'text', text: 'no such file' }], isError: true },
      text,
    );
    expect(result).toEqual({ output: 'no such file', isError: true });
  });

  it('reads the legacy toolResult form', () => {
    expect(convertCallToolResult({ toolResult: 'plain' }, text).output).toBe('plain');
    expect(convertCallToolResult({ toolResult: { n: 1 } }, text).output).toBe('{"n":1}');
  });

  it('cuts results over the limit with a note giving the numbers', () => {
    const body = 'a'.repeat(1000);
    const result = convertCallToolResult(
      { content: [{ type: 'text', text: body }] },
      { ...text, maxResultTokens: 100 },
    );
    expect(result.truncatedChars).toBe(600);
    expect(result.output).toBe(
      `${'a'.repeat(400)}\n(result truncated: showing about 100 of 250 tokens; 600 characters cut)`,
    );
  });

  it('counts separators and drops whole parts past the limit, keeping media', () => {
    const result = convertCallToolResult(
      {
        content: [
          { type: 'text', text: 'x'.repeat(6) },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'text', text: 'y'.repeat(6) },
          { type: 'text', text: 'z'.repeat(6) },
        ],
      },
      { maxResultTokens: 3, acceptsMedia: true },
    );
    // 6 + 1 + 6 + 1 + 6 = 20 characters (5 tokens); 12 kept: 6 x, newline, 5 y.
    expect(result.truncatedChars).toBe(8);
    expect(result.output).toEqual([
      { type: 'text', text: 'xxxxxx' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'text', text: 'yyyyy\n(result truncated: showing about 3 of 5 tokens; 8 characters cut)' },
    ]);
  });

  it('redacts every text before cutting, so a secret at the cut leaves no prefix', () => {
    const redact = createRedactor({ SERVICE_TOKEN: 'tok-0123456789abcdef' });
    const result = convertCallToolResult(
      {
        content: [
          { type: 'resource', resource: { uri: 'x://y', text: 'again tok-0123456789abcdef' } },
          { type: 'text', text: `${'a'.repeat(300)}tok-0123456789abcdef${'b'.repeat(200)}` },
        ],
      },
      { ...text, maxResultTokens: 100, redact },
    );
    const output = String(result.output);
    expect(output).not.toContain('tok-');
    expect(output).toContain('[resource x://y]\nagain [REDACTED:SERVICE_TOKEN]\naaa');
    expect(output).toContain(`${'a'.repeat(300)}[REDACTED:SERVICE_TOKEN]bbb`);
  });

  it('does not cut a result at the limit', () => {
    const result = convertCallToolResult(
      { content: [{ type: 'text', text: 'b'.repeat(400) }] },
      { ...text, maxResultTokens: 100 },
    );
    expect(result.truncatedChars).toBeUndefined();
    expect(result.output).toBe('b'.repeat(400));
  });

  it('never splits a surrogate pair when cutting', () => {
    const result = convertCallToolResult(
      { content: [{ type: 'text', text: `abc${'🎲'.repeat(10)}` }] },
      { ...text, maxResultTokens: 1 },
    );
    expect(result.output).toBe('abc\n(result truncated: showing about 1 of 6 tokens; 20 characters cut)');
  });

  // How fast is bench row L2 (`npm run bench latency`): a busy machine must not fail this test.
  it('cuts a 10 MB result, one part or a thousand, to the limit', () => {
    const big = 'line of output\n'.repeat(700_000);
    expect(big.length).toBeGreaterThan(10_000_000);
    const parts = Array.from({ length: 1000 }, () => ({ type: 'text', text: big.slice(0, 10_000) }));
    const single = convertCallToolResult({ content: [{ type: 'text', text: big }] }, text);
    const many = convertCallToolResult({ content: parts }, text);
    expect(typeof single.output === 'string' && single.output.length).toBeLessThan(100_200);
    expect(single.truncatedChars).toBe(big.length - 100_000);
    expect(many.truncatedChars).toBe(1000 * 10_000 + 999 - 100_000);
  });
});
