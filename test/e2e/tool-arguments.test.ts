/**
 * Built-in tools check their arguments against the schema the model was sent: a wrong-typed or
 * missing argument comes back to the model as the call's result, naming the tool, the argument
 * and what came instead, and nothing runs.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, parseJsonOutput, toolMessages } from './harness.js';

const fx = cliFixture();

describe('built-in tool arguments', () => {
  it('answers wrong-typed arguments with the tool, the argument and what was sent', async () => {
    await fx.project.write('notes.txt', 'alpha\n');
    fx.fake.push(
      {
        toolCalls: [
          { name: 'read', arguments: JSON.stringify({ path: 42 }) },
          { name: 'patch', arguments: JSON.stringify({ path: 'notes.txt', hunks: 'alpha -> ALPHA' }) },
          { name: 'write', arguments: JSON.stringify({ path: 'notes.txt' }) },
        ],
      },
      { text: 'I will fix my arguments.' },
    );
    const run = await fx.run(['-p', 'edit', '--output-format', 'json', '--allow', 'patch,write']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    const expected = [
      'read: "path" must be a string (got a number)',
      'patch: "hunks" must be an array (got a string)',
      'write: "content" must be a string (it is missing)',
    ];
    expect(out.tool_calls.map((call) => [call.result, call.is_error])).toEqual(
      expected.map((m) => [m, true]),
    );
    // The model reads the same text as each call's result.
    expect(toolMessages(fx.fake.requests[1]!.body)).toEqual(expected);
    expect(await readFile(path.join(fx.project.dir, 'notes.txt'), 'utf8')).toBe('alpha\n');
  });

  it("checks the extensions' tools the same way (memory, knowledge base)", async () => {
    fx.fake.push(
      {
        toolCalls: [
          { name: 'memory_search', arguments: JSON.stringify({ query: 'editor', limit: 50 }) },
          { name: 'rag_search', arguments: JSON.stringify({ query: 'editor', limit: '3' }) },
        ],
      },
      { text: 'ok' },
    );
    const run = await fx.run(['-p', 'look', '--output-format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls.map((call) => [call.name, call.result])).toEqual([
      ['memory_search', 'memory_search: "limit" must be at most 20'],
      ['rag_search', 'rag_search: "limit" must be a number (got a string)'],
    ]);
  });

  it('sends the same schema it checks: property names, required lists, no $schema', async () => {
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'hi']);
    expect(run.code, run.stderr).toBe(0);
    const tools = fx.fake.requests[0]!.body.tools as Array<{
      function: { name: string; parameters: object };
    }>;
    const read = tools.find((tool) => tool.function.name === 'read')!.function.parameters;
    expect(read).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the project root.' },
        offset: {
          type: 'integer',
          minimum: 0,
          description: 'Character offset to start from (default 0). Each call returns up to 2000 characters.',
        },
      },
      required: ['path'],
      additionalProperties: false,
    });
    for (const tool of tools) expect(JSON.stringify(tool.function.parameters)).not.toContain('$schema');
  });
});
