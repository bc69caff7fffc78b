/**
 * Small frictions of the first hour (issue 41), in a real pty: the question says what `a` does and
 * an MCP call without arguments says so; Shift+Tab's mode change is said in the transcript; `/trust`
 * after "not now" asks again, records the yes and says what takes a new start.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SERVER, userProjectDirOf } from './harness.js';
import { KEYS, tuiFixture } from './pty.js';

const fx = tuiFixture({ rows: 40, cols: 120 });
const SHIFT_TAB = '\u001b[Z';
const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
const demo = () => fx.project.mcpServers({ demo: { command: process.execPath, args: [DEMO_SERVER] } });

describe('the first hour in the TUI', () => {
  it('the open question says what a means; an MCP call without arguments says "(no arguments)"', async () => {
    await demo();
    fx.fake.push({ toolCalls: [call('mcp_demo_dice', {})] }, { text: 'Rolled.' });
    const tui = fx.start();
    await tui.waitFor('MCP demo(2)');
    tui.send('roll');
    tui.send(KEYS.enter);
    await tui.waitFor('Confirm execution? [y/N/a] (a = always for this tool in this project)');
    expect(tui.screen()).toContain('(no arguments)');
    expect(tui.screen()).not.toMatch(/^\{\}$/m);
    tui.send('y');
    await tui.waitFor('Rolled.');
    // The transcript keeps the short prompt with the answer.
    expect(tui.screen()).toContain('Confirm execution? [y/N/a] → y');
  });

  it('Shift+Tab says the new mode in the transcript', async () => {
    const tui = fx.start();
    await tui.waitFor('Mode default');
    tui.send(SHIFT_TAB);
    await tui.waitFor(/^mode: accept-edits — /m);
    tui.send(SHIFT_TAB);
    await tui.waitFor(/^mode: plan — /m);
  });

  it('/trust after "not now" asks again, records the yes, imports the old input history and says to restart', async () => {
    await demo();
    await fx.project.write('.geekagent/history', '"an earlier question"\n');
    const tui = fx.start({ trusted: false });
    await tui.waitFor('Trust this folder? y = yes, from now on');
    tui.send('n');
    await tui.waitFor('or /trust now');
    expect(existsSync(path.join(fx.project.home, '.geekagent', 'trusted.json'))).toBe(false);
    tui.send('/trust');
    tui.send(KEYS.enter);
    await tui.waitFor('Trust this folder? y = yes, from now on');
    tui.send('y');
    await tui.waitFor('geekagent --continue');
    expect(tui.screen()).toContain('trusted: .geekagent/mcp.json (1 server)');
    expect(tui.screen()).toContain('imported 1 input history lines from .geekagent/history');
    expect(existsSync(path.join(fx.project.home, '.geekagent', 'trusted.json'))).toBe(true);
    tui.send('/exit');
    tui.send(KEYS.enter);
    expect(await tui.exited()).toBe(0);
    expect(await readFile(path.join(userProjectDirOf(fx.project), 'history'), 'utf8')).toBe(
      '"an earlier question"\n"/trust"\n"/exit"\n',
    );

    // The next start is trusted: the server runs without a question.
    const next = fx.start({ trusted: false });
    await next.waitFor('MCP demo(2');
    expect(next.screen()).not.toContain('Trust this folder?');
  });
});
