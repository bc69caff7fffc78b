/**
 * A program's accepted form content (stream-json) is checked as the TUI's typed answers are:
 * types, choices, required fields, no unknown field; the TUI's text parsing is unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { ElicitationRequest } from '../../../src/mcp/client-features.js';
import { checkContent, formFields, parseField } from '../../../src/mcp/elicitation-form.js';

const request: ElicitationRequest = {
  server: 's',
  message: 'm',
  schema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name' },
      age: { type: 'integer' },
      ok: { type: 'boolean' },
      color: { type: 'string', enum: ['red', 'blue'] },
      tags: { type: 'array', items: { enum: ['a', 'b'] } },
    },
    required: ['name'],
  },
};

describe('checkContent', () => {
  it('keeps content of the right types and choices', () => {
    const content = { name: 'Ada', age: 36, ok: true, color: 'blue', tags: ['a', 'b'] };
    expect(checkContent(request, content)).toEqual({ content });
    expect(checkContent(request, { name: 'Ada' })).toEqual({ content: { name: 'Ada' } });
  });

  it('names the first problem as the TUI words it', () => {
    expect(checkContent(request, {})).toEqual({ error: 'Name is required' });
    expect(checkContent(request, { name: 'A', age: 1.5 })).toEqual({ error: 'age must be a whole number' });
    expect(checkContent(request, { name: 'A', age: '3' })).toEqual({ error: 'age must be a whole number' });
    expect(checkContent(request, { name: 'A', ok: 'yes' })).toEqual({ error: 'ok must be true or false' });
    expect(checkContent(request, { name: 'A', color: 'green' })).toEqual({
      error: 'color: choose one of red, blue',
    });
    expect(checkContent(request, { name: 'A', tags: ['c'] })).toEqual({ error: 'tags: choose from a, b' });
    expect(checkContent(request, { name: 7 })).toEqual({ error: 'Name must be a string' });
    expect(checkContent(request, { name: 'A', extra: 1 })).toEqual({
      error: 'the form has no field "extra"',
    });
    expect(checkContent(request, ['A'])).toMatchObject({
      error: expect.stringContaining('must be an object'),
    });
  });

  it('the TUI parses typed text by the same fields', () => {
    const [, age] = formFields(request);
    expect(parseField(age!, '1.5')).toEqual({ error: 'age must be a whole number' });
    expect(parseField(age!, '3')).toBe(3);
  });
});
