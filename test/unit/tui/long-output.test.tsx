/**
 * Issue 19's view pieces: the reasoning block (streaming, collapsed, expanded), answers parsed per
 * completed Markdown block and clipped to their last rows, the transcript store joining deltas
 * once per read and toggling the latest reasoning, the pager's rows and moves.
 */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIP_LINES, lastRows, rowsOf } from '../../../src/tui/clip.js';
import { ModelText } from '../../../src/tui/components/LongText.js';
import { pagerRows } from '../../../src/tui/components/Pager.js';
import { Reasoning } from '../../../src/tui/components/Reasoning.js';
import { Transcript } from '../../../src/tui/components/Transcript.js';
import { BlockSplitter } from '../../../src/tui/markdown-blocks.js';
import { pagerMove } from '../../../src/tui/pager-keys.js';
import { TranscriptStore } from '../../../src/tui/transcript-store.js';
import { plain, withMarkdown } from './helpers.js';

const rendered: Array<{ unmount(): void }> = [];
afterEach(() => {
  for (const instance of rendered.splice(0)) instance.unmount();
});

function frameOf(node: React.ReactElement): string {
  const instance = render(withMarkdown(node));
  rendered.push(instance);
  return plain(instance.lastFrame());
}

const reasoning = (over: Partial<{ text: string; endedAt: number | undefined; expanded: boolean }>) => ({
  id: 1,
  kind: 'reasoning' as const,
  text: Array.from({ length: 10 }, (_, i) => `thought ${i}`).join('\n'),
  startedAt: 1_000,
  endedAt: undefined,
  expanded: false,
  ...over,
});

describe('the reasoning block', () => {
  it('shows its last lines while it streams', () => {
    const frame = frameOf(<Reasoning entry={reasoning({})} />);
    expect(frame).toContain('Thinking…');
    expect(frame).toContain('thought 9');
    expect(frame).toContain('thought 5');
    expect(frame).not.toContain('thought 4');
  });

  it('collapses to one line when done, and expands to all of it', () => {
    const collapsed = frameOf(<Reasoning entry={reasoning({ endedAt: 13_200 })} />);
    expect(collapsed.trim()).toBe('Thought for 12 s (Ctrl+O to expand)');
    const expanded = frameOf(<Reasoning entry={reasoning({ endedAt: 13_200, expanded: true })} />);
    expect(expanded).toContain('Thought for 12 s (Ctrl+O to collapse)');
    expect(expanded).toContain('thought 0');
    expect(expanded).toContain('thought 9');
  });

  it('escapes control characters in the model’s reasoning', () => {
    const frame = frameOf(<Reasoning entry={reasoning({ text: 'evil \u001b[2J here' })} />);
    expect(frame).toContain('^[[2J');
  });
});

describe('long answers', () => {
  it('are cut into completed blocks incrementally, fences kept whole', () => {
    const splitter = new BlockSplitter();
    expect(splitter.update('para one\n\n```\na\n\nb\n').done).toEqual(['para one\n\n']);
    const more = splitter.update('para one\n\n```\na\n\nb\n```\n\n- item\n\n  more\n\nend\n');
    expect(more.done).toEqual(['para one\n\n', '```\na\n\nb\n```\n\n', '- item\n\n  more\n\n']);
    expect(more.tail).toBe('end\n');
  });

  it('shows only the last rows of a huge answer, with a note and the Markdown of what is shown', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `**line** ${i}${i % 5 === 4 ? '\n' : ''}`).join('\n');
    const frame = frameOf(<ModelText text={text} />);
    expect(frame).toContain('line 999');
    expect(frame).not.toContain('line 0\n');
    expect(frame).toContain('line 995\nline 996');
    expect(frame.slice(frame.indexOf('line 995'))).not.toContain('**');
    expect(frame).toMatch(/↑ \d+ KB earlier not shown · Ctrl\+T pages through all of it/);
    expect(frame.split('\n').length).toBeLessThanOrEqual(CLIP_LINES + 2);
  });

  it('lays out only the rows the transcript window can show, keeping the clip note of the whole entry', () => {
    const tool = Array.from({ length: 1000 }, (_, i) => `tool line ${i}`).join('\n');
    const answer = Array.from({ length: 1000 }, (_, i) => `answer line ${i}${i % 5 === 4 ? '\n' : ''}`).join(
      '\n',
    );
    const entries = [
      { id: 1, kind: 'tool' as const, text: tool },
      { id: 2, kind: 'model' as const, text: answer },
    ];
    const frame = frameOf(<Transcript entries={entries} renderRows={20} wrap={80} />);
    expect(frame).toContain('answer line 999');
    expect(frame).not.toContain('answer line 900');
    // The entry above is not laid out at all: the window is full.
    expect(frame).not.toContain('tool line');
    expect(frame).toMatch(/↑ \d+ KB earlier not shown · Ctrl\+T pages through all of it/);
    expect(frame.trimEnd().split('\n').length).toBeLessThanOrEqual(22);
  });

  it('estimates rows with wrapping, and cuts a huge single line from its end', () => {
    expect(rowsOf('a\nb')).toBe(2);
    expect(rowsOf('x'.repeat(1_000_000))).toBe(5_000);
    expect(lastRows('x'.repeat(1_000_000), 2)).toHaveLength(400);
  });
});

describe('the transcript store', () => {
  it('joins streamed deltas when read, ends reasoning when the answer starts, toggles the latest block', () => {
    const store = new TranscriptStore();
    store.reasoningText('think', 1_000);
    store.reasoningText('ing', 1_500);
    for (let i = 0; i < 10_000; i++) store.modelText('x', 3_000);
    const [thought, answer] = store.entries;
    expect(thought).toMatchObject({ kind: 'reasoning', text: 'thinking', startedAt: 1_000, endedAt: 3_000 });
    expect(answer).toMatchObject({ kind: 'model', text: 'x'.repeat(10_000) });
    expect(store.toggleReasoning()).toBe(true);
    expect(store.entries[0]).toMatchObject({ expanded: true });
  });
});

describe('the pager', () => {
  it('cuts lines to the width and moves a screen, a row, or to the ends', () => {
    expect(pagerRows('abcdef\nxy', 4)).toEqual(['abcd', 'ef', 'xy']);
    expect(pagerMove({ type: 'key', name: 'pageDown' }, 0, 100, 10)).toBe(9);
    expect(pagerMove({ type: 'key', name: 'end' }, 0, 100, 10)).toBe(90);
    expect(pagerMove({ type: 'key', name: 'up' }, 0, 100, 10)).toBe(0);
    expect(pagerMove({ type: 'key', name: 'escape' }, 5, 100, 10)).toBe('close');
  });
});
