/**
 * Background shells over ACP: the run_shell call that started one stays `in_progress` after the
 * turn while the shell runs, and becomes `completed` once it is stopped (shell_kill) or its end
 * has been read; a shell that ended before run_shell returned completes at once.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { editorFixture } from './acp-client.js';
import { cliFixture } from './harness.js';

const fx = cliFixture();
const editor = editorFixture(fx);

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

describe('geekagent acp: background shells', () => {
  it('keeps the starting call in progress until the shell is stopped or its end was read', async () => {
    fx.fake.push(
      { toolCalls: [call('run_shell', { command: 'sleep 300 & echo up; wait', background: true })] },
      { text: 'started' },
      { toolCalls: [call('shell_kill', { id: 'shell-1' })] },
      { text: 'stopped' },
      { toolCalls: [call('run_shell', { command: 'true', background: true })] },
      { text: 'that one ended' },
    );
    const ed = editor();
    await ed.initialize();
    const id = await ed.newSession();
    const statusesOf = (callId: string) =>
      ed
        .of(id, 'tool_call_update')
        .filter((update) => 'toolCallId' in update && update.toolCallId === callId)
        .map((update) => ('status' in update ? update.status : undefined))
        .filter((status) => status !== undefined);
    const callIds = () =>
      ed.of(id, 'tool_call').map((update) => ('toolCallId' in update ? update.toolCallId : ''));

    expect(await ed.prompt(id, 'start a server')).toBe('end_turn');
    const [started] = callIds();
    expect(statusesOf(started!).at(-1)).toBe('in_progress');
    expect(statusesOf(started!)).not.toContain('completed');

    expect(await ed.prompt(id, 'stop it')).toBe('end_turn');
    await waitFor(() => statusesOf(started!).at(-1) === 'completed', {
      what: 'the starting call to complete once the shell was stopped',
    });

    expect(await ed.prompt(id, 'run a quick one')).toBe('end_turn');
    const quick = callIds()[2]!;
    await waitFor(() => statusesOf(quick).at(-1) === 'completed', { what: 'the quick call to complete' });
    expect(statusesOf(quick)).not.toContain('failed');
  });
});
