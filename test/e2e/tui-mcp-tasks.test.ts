/**
 * An MCP task (the tasks extension) in the TUI, against the real fixture server task.mjs: the
 * task's status shows on the running tool's line as it is polled, and Esc (a cancelled turn) sends
 * `tasks/cancel` — the fixture records it — after which the next message works.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { KEYS, tuiFixture } from './pty.js';

const TASK = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'task.mjs');

const fx = tuiFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
const readOrEmpty = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

describe('MCP tasks in the TUI', () => {
  it('shows the task’s status while it runs; Esc sends tasks/cancel; the next message works', async () => {
    const cancels = path.join(fx.project.dir, 'cancels.log');
    await fx.project.mcpServers({ t: { command: 'node', args: [TASK], env: { TASK_CANCEL_LOG: cancels } } });
    await fx.project.tools({ 'mcp_t_*': 'allow' });
    fx.fake.push(
      { toolCalls: [call('mcp_t_slow', { steps: 1_000_000_000 })] },
      { text: 'Still here after the cancel.' },
    );
    const tui = fx.start();
    await tui.waitFor('MCP t(3)');
    tui.send('run the long job');
    tui.send(KEYS.enter);
    await tui.waitFor(/task working: step \d+\/1000000000/);
    tui.send(KEYS.escape);
    await tui.waitFor(/^cancelled\s/m);
    await waitFor(() => readOrEmpty(cancels).startsWith('cancel task-1-slow'), {
      what: 'tasks/cancel at the server',
    });
    tui.send('are you there?');
    tui.send(KEYS.enter);
    await tui.waitFor('Still here after the cancel.');
  });
});
