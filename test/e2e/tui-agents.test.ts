/**
 * Sub-agents and todos in the TUI (a real pty): the panel's TODO rows, a running sub-agent as a
 * nested activity line (agent, round, current tool), and Esc cancelling the turn cancels the
 * child too — its MCP call is cancelled at the server, not left running.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { FIXTURE_SERVERS } from './harness.js';
import { KEYS, spawnTui, tuiFixture } from './pty.js';

const fx = tuiFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

describe('sub-agents in the TUI', () => {
  it('shows the todo list and a nested line for the running child; Esc cancels it and its MCP call', async () => {
    const cancelLog = path.join(fx.project.dir, 'cancelled.log');
    await fx.project.mcpServers({
      hang: {
        command: process.execPath,
        args: [path.join(FIXTURE_SERVERS, 'hang.mjs')],
        env: { CANCEL_LOG: cancelLog },
      },
    });
    await fx.project.tools({ 'mcp_hang_*': 'allow' });
    await fx.project.write(
      '.geekagent/agents/waiter.md',
      '---\nname: waiter\ndescription: waits on the hang server\ntools:\n  - mcp_hang_*\n---\nWait.\n',
    );
    const todos = {
      todos: [
        { content: 'ask the waiter', status: 'in_progress' },
        { content: 'report back', status: 'pending' },
      ],
    };
    fx.fake.push(
      { toolCalls: [call('todo_write', todos)] },
      { toolCalls: [call('delegate_task', { task: 'wait for it', agent: 'waiter' })] },
      { text: 'Back after the cancel.' },
    );
    fx.fake.pushFor('waiter', { toolCalls: [call('mcp_hang_hang', {})] });
    const tui = spawnTui({ project: fx.project, modelUrl: fx.fake.url, cols: 120, rows: 40 });
    fx.sessions.push(tui);
    await tui.waitFor('MCP hang(3)');
    tui.send('delegate the wait');
    tui.send(KEYS.enter);
    await tui.waitFor(/waiter: round 1, running mcp_hang_hang/);
    const screen = tui.screen();
    expect(screen).toMatch(/delegate_task \d+\.\ds/);
    expect(screen).toContain('TODO 0/2 done');
    expect(screen).toContain('[>] ask the waiter');
    expect(screen).toContain('[ ] report back');

    tui.send(KEYS.escape);
    await tui.waitFor(/^cancelled\s/m);
    await waitFor(() => readOrEmpty(cancelLog).includes('cancelled'), {
      what: 'notifications/cancelled at the server for the child’s call',
    });

    tui.send('still there?');
    tui.send(KEYS.enter);
    await tui.waitFor('Back after the cancel.');
  });

  it("asks the same person about a child's ask tool, labelled with the agent's name", async () => {
    await fx.project.write('.geekagent/agents/writer.md', '---\ndescription: writes\ntools: [write]\n---\n');
    fx.fake.push(
      { toolCalls: [call('delegate_task', { task: 'write out.txt', agent: 'writer' })] },
      { text: 'Parent done.' },
    );
    fx.fake.pushFor(
      'writer',
      { toolCalls: [call('write', { path: 'out.txt', content: 'hello' })] },
      { text: 'Wrote it.' },
    );
    const tui = spawnTui({ project: fx.project, modelUrl: fx.fake.url, cols: 120, rows: 40 });
    fx.sessions.push(tui);
    await tui.waitFor('Type /help');
    tui.send('have the writer write');
    tui.send(KEYS.enter);
    await tui.waitFor(/\[agent writer\] .*out\.txt/);
    tui.send('y');
    await tui.waitFor('Parent done.');
    expect(readOrEmpty(path.join(fx.project.dir, 'out.txt'))).toBe('hello');
  });
});
