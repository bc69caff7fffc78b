/**
 * A cold start in the TUI (a real pty): a server held at start by a gate file shows as connecting in
 * the panel and in `/mcp`, a line sent meanwhile is answered before it is up (after the start-up
 * grace), and once the gate opens the panel shows its tools.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { KEYS, spawnTui, tuiFixture } from './pty.js';

const STDIO_2026 = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'stdio-2026.mjs');

const fx = tuiFixture();

describe('a cold start in the TUI', () => {
  it('shows a server still starting as connecting and answers before it is up', async () => {
    const gate = path.join(fx.project.dir, 'gate');
    await fx.project.mcpServers({
      slow: { command: 'node', args: [STDIO_2026], env: { START_GATE: gate } },
    });
    let gateWasOpen: boolean | undefined;
    fx.fake.push(() => {
      gateWasOpen = existsSync(gate);
      return { text: 'answered early' };
    });
    // The default grace (the harness sets a long one for tests not about it).
    const tui = spawnTui({
      project: fx.project,
      modelUrl: fx.fake.url,
      env: { GEEKAGENT_MCP_START_GRACE_MS: undefined },
    });
    fx.sessions.push(tui);
    await tui.waitFor('MCP slow(connecting)');
    tui.send('/mcp');
    tui.send(KEYS.enter);
    await tui.waitFor('slow (connecting)');
    tui.send('hi');
    tui.send(KEYS.enter);
    await tui.waitFor('answered early');
    expect(gateWasOpen).toBe(false);
    expect(String(fx.fake.requests[0]!.body.messages[0]?.content)).toContain(
      'MCP servers still connecting: slow.',
    );
    writeFileSync(gate, '');
    await tui.waitFor('MCP slow(2)');
  });
});
