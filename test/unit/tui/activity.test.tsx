/** What runs now: a spinner with elapsed time per tool, MCP progress as a bar, queued messages. */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { Activity, elapsed, progressBar, queuedLine } from '../../../src/tui/components/Activity.js';
import { plain } from './helpers.js';

const rendered: Array<{ unmount(): void }> = [];
afterEach(() => {
  for (const instance of rendered.splice(0)) instance.unmount();
});

function frame(props: Partial<Parameters<typeof Activity>[0]>): string {
  const instance = render(
    <Activity
      busy
      turnStartedAt={1_000}
      tools={[]}
      queued={[]}
      waitingForAnswer={false}
      now={() => 3_500}
      {...props}
    />,
  );
  rendered.push(instance);
  return plain(instance.lastFrame());
}

describe('Activity', () => {
  it('shows each running tool with a spinner and its elapsed time', () => {
    const text = frame({ tools: [{ callId: 'c1', name: 'mcp_hang_hang', startedAt: 2_000 }] });
    expect(text).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] mcp_hang_hang 1\.5s$/);
  });

  it('shows MCP progress as a bar with the server message', () => {
    const text = frame({
      tools: [
        {
          callId: 'c1',
          name: 'mcp_hang_slow',
          startedAt: 2_000,
          progress: { progress: 2, total: 4, message: 'step 2 of 4' },
        },
      ],
    });
    expect(text).toContain('[████████░░░░░░░░] 50% step 2 of 4');
  });

  it('says thinking while the model works, and nothing while a question waits', () => {
    expect(frame({})).toMatch(/thinking… 2\.5s/);
    expect(frame({ waitingForAnswer: true, tools: [{ callId: 'c', name: 'x', startedAt: 0 }] })).toBe('');
  });

  it('shows a long queued message as one short row: its first line, cut, and the count of the rest', () => {
    const pasted = Array.from({ length: 5000 }, (_, i) => `pasted line ${i}`).join('\n');
    const text = frame({ queued: [pasted] });
    expect(text).toContain('queued › pasted line 0 (+4999 more lines)');
    expect(text).not.toContain('pasted line 1');
    expect(queuedLine('x'.repeat(500))).toBe(`queued › ${'x'.repeat(119)}…`);
  });

  it('lists messages queued behind the running turn', () => {
    expect(frame({ queued: ['next one', 'and another'] })).toContain(
      'queued › next one\nqueued › and another',
    );
  });

  it('formats progress without a total, and long durations', () => {
    expect(progressBar({ progress: 7, message: 'files' })).toBe('7 files');
    expect(elapsed(125_000)).toBe('2m05s');
  });
});
