/**
 * A 2026-07-28 server's multi round-trip requests under `geekagent acp`, as a 2025 server's are:
 * a confirmation (a yes/no form) becomes the editor's permission request and its answer goes back
 * in the retried call; a form with fields is declined with a note in the session. The server is
 * the SDK v2 fixture `mrtr.mjs`, passed by the editor in `session/new`.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { editorFixture } from './acp-client.js';
import { cliFixture, toolMessages } from './harness.js';

const MRTR = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'mrtr.mjs');
const server = { name: 'm', command: process.execPath, args: [MRTR], env: [] };

const fx = cliFixture();
const editor = editorFixture(fx);

describe('a 2026 server asking for input under ACP', () => {
  it('a confirmation is the editor’s permission request; allowed, the server gets it', async () => {
    fx.fake.push({ toolCalls: [{ name: 'mcp_m_confirm', arguments: '{}' }] }, { text: 'confirmed' });
    // First the tool call's own permission, then the server's question.
    const ed = editor({ answers: ['allow_once', 'allow_once'] });
    await ed.initialize();
    const id = await ed.newSession([server]);
    expect(await ed.prompt(id, 'confirm it')).toBe('end_turn');
    expect(ed.permissions).toHaveLength(2);
    expect(ed.permissions[1]?.toolCall).toMatchObject({
      title: 'MCP server m asks',
      content: [{ type: 'content', content: { type: 'text', text: 'Go ahead?' } }],
    });
    expect(toolMessages(fx.fake.requests[1]!.body)[0]).toBe('approved');
  });

  it('a rejected confirmation is declined; a form with fields is declined with a note', async () => {
    fx.fake.push(
      { toolCalls: [{ name: 'mcp_m_confirm', arguments: '{}' }] },
      { toolCalls: [{ name: 'mcp_m_ask_name', arguments: '{}' }] },
      { text: 'both asked' },
    );
    const ed = editor({ answers: ['allow_once', 'reject_once', 'allow_once'] });
    await ed.initialize();
    const id = await ed.newSession([server]);
    expect(await ed.prompt(id, 'ask twice')).toBe('end_turn');
    expect(toolMessages(fx.fake.requests[1]!.body)[0]).toBe('declined');
    expect(toolMessages(fx.fake.requests[2]!.body)[1]).toBe('declined');
    expect(ed.text(id)).toContain(
      'MCP server m asked for a form (name); declined: forms cannot be filled in',
    );
  });
});
