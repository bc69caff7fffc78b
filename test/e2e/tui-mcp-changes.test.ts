/**
 * A server's changes in the TUI, with the 2026-07-28 fixture servers: a tool the model's call added
 * shows in the panel's count at once, and an `@`-mentioned resource that changed is attached again
 * at the next message, with a line saying so.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { KEYS, tuiFixture } from './pty.js';

const FIXTURES_2026 = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026');
const fx = tuiFixture({ cols: 110, rows: 30 });

const call = (name: string, args: Record<string, unknown> = {}) => ({
  toolCalls: [{ name, arguments: JSON.stringify(args) }],
});

describe('server changes in the TUI', () => {
  it('a tool added over the listen stream counts in the panel', async () => {
    await fx.project.mcpServers({
      lc: { command: 'node', args: [path.join(FIXTURES_2026, 'list-changes.mjs')] },
    });
    await fx.project.tools({ 'mcp_lc_*': 'allow' });
    fx.fake.push(call('mcp_lc_add_tool', { name: 'fresh' }), { text: 'the tool is there' });
    const tui = fx.start();
    await tui.waitFor(/MCP\s+lc\(6\)/, 20_000);
    tui.send(`add a tool${KEYS.enter}`);
    await tui.waitFor('the tool is there');
    await tui.waitFor(/MCP\s+lc\(7\)/);
    expect(fx.fake.requests[1]!.body.tools?.some((t) => JSON.stringify(t).includes('mcp_lc_fresh'))).toBe(
      true,
    );
  });

  it('a watched resource that changed is attached again at the next message, and the person is told', async () => {
    await fx.project.mcpServers({
      ru: { command: 'node', args: [path.join(FIXTURES_2026, 'resource-updates.mjs')] },
    });
    await fx.project.tools({ 'mcp_ru_*': 'allow' });
    fx.fake.push(call('mcp_ru_bump'), { text: 'bumped it' }, { text: 'saw the change' });
    const tui = fx.start();
    await tui.waitFor(/MCP\s+ru\(2\)/, 20_000);
    tui.send(`look at @ru:res://counter${KEYS.enter}`);
    await tui.waitFor('attached @ru:res://counter');
    await tui.waitFor('bumped it');
    tui.send(`and now?${KEYS.enter}`);
    await tui.waitFor('@ru:res://counter changed: attached its new content');
    await tui.waitFor('saw the change');
    const last = fx.fake.requests[2]!.body.messages.filter((m) => m.role === 'user').at(-1);
    expect(String(last?.content)).toContain('count 1');
  });
});
