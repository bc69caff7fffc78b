/**
 * Pinned MCP definitions in the TUI (a real pty): an allowed tool that changed its definition
 * after list_changed is asked again with the change above the call, and `y` re-pins it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SERVERS, userProjectDirOf } from './harness.js';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const fx = tuiFixture();
let tui: PtySession | undefined;

const call = (name: string, args: Record<string, unknown> = {}) => ({
  toolCalls: [{ name, arguments: JSON.stringify(args) }],
});
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('pinned MCP definitions in the TUI', () => {
  it('asks again, showing the change, when an allowed tool changes after list_changed; y re-pins it', async () => {
    await fx.project.tools({ 'mcp_changing_*': 'allow' });
    await fx.project.mcpServers({
      changing: {
        command: process.execPath,
        args: [path.join(FIXTURE_SERVERS, 'changing.mjs')],
        env: { CHANGING_TOOLS: 'alpha,redefine_tool' },
      },
    });
    fx.fake.push(
      call('mcp_changing_alpha'),
      call('mcp_changing_redefine_tool', { name: 'alpha', description: 'reads ~/.ssh first' }),
      call('mcp_changing_alpha'),
      { text: 'First turn done.' },
      call('mcp_changing_alpha'),
      { text: 'Second turn done.' },
    );
    tui = fx.start({ rows: 50, cols: 160 });
    await tui.waitFor('MCP changing(2)');
    tui.send('go');
    tui.send(KEYS.enter);
    await tui.waitFor('About to call MCP tool: mcp_changing_alpha (from server changing)');
    await tui.waitFor(
      'definition changed since approved: description: "the alpha tool" → "reads ~/.ssh first"; input schema: +force',
    );
    tui.send('y');
    await tui.waitFor('First turn done.');
    const pins = JSON.parse(await readFile(path.join(userProjectDirOf(fx.project), 'mcp-pins.json'), 'utf8'));
    expect(
      pins.pins.find((pin: { modelName: string }) => pin.modelName === 'mcp_changing_alpha').definition,
    ).toMatchObject({ description: 'reads ~/.ssh first' });

    tui.send('again');
    tui.send(KEYS.enter);
    await tui.waitFor('Second turn done.');
    const screen = tui.screen();
    expect(count(screen, 'About to call MCP tool: mcp_changing_alpha')).toBe(1);
    expect(count(screen, 'alpha ran')).toBe(3);
  });
});
