/**
 * `/rag add` progress: the bar line (files done / total, bytes, the current file with its control
 * characters shown, never obeyed), the TUI transcript redrawing it in place instead of a line per
 * file, and print mode's stderr line (redrawn on a terminal, at most once a second in a log).
 */
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../../src/cli/progress-line.js';
import { formatBytes, formatProgress, progressBar } from '../../../src/rag/progress.js';
import { TranscriptStore } from '../../../src/tui/transcript-store.js';

describe('the progress bar', () => {
  it('fills in proportion to the files done', () => {
    expect(progressBar(0, 10)).toBe(`[${'.'.repeat(20)}]`);
    expect(progressBar(5, 10)).toBe(`[${'#'.repeat(10)}${'.'.repeat(10)}]`);
    expect(progressBar(9, 10)).toBe(`[${'#'.repeat(18)}${'.'.repeat(2)}]`);
    expect(progressBar(10, 10)).toBe(`[${'#'.repeat(20)}]`);
    expect(progressBar(0, 0)).toBe(`[${'#'.repeat(20)}]`);
  });

  it('shows files done of the total, bytes read and the current file', () => {
    expect(
      formatProgress({ done: 1234, total: 10000, bytes: 12.5 * 1024 * 1024, current: 'docs/a.md' }),
    ).toBe(`[##..................] 1,234/10,000 sources · 12.5 MB · docs/a.md`);
    expect(formatProgress({ done: 0, total: 1, bytes: 0, current: undefined })).toBe(
      `[${'.'.repeat(20)}] 0/1 source · 0 B`,
    );
    expect(formatBytes(2048)).toBe('2.0 KB');
  });

  it('shows a file name escape sequence as text, and keeps the end of a long name', () => {
    const line = formatProgress({ done: 1, total: 2, bytes: 10, current: 'docs/\u001b]0;pwned\u0007\nx.md' });
    expect(line).toContain('docs/^[]0;pwned^G^Jx.md');
    expect([...line].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
    const long = formatProgress({ done: 1, total: 2, bytes: 10, current: `${'deep/'.repeat(30)}file.md` });
    expect(long).toMatch(/ · …[a-z/]+\/deep\/file\.md$/);
    expect(long.split(' · ').at(-1)!.length).toBe(60);
  });
});

describe('the TUI transcript', () => {
  it('replaces a command run’s progress line in place; the next run gets its own', () => {
    const transcript = new TranscriptStore();
    transcript.line('user', '/rag add docs');
    for (let i = 1; i <= 50; i++) transcript.progress(1, `${i}/50`);
    transcript.line('system', 'knowledge base: 50 indexed');
    transcript.progress(1, 'still 50/50');
    expect(transcript.entries.map((e) => ('text' in e ? e.text : ''))).toEqual([
      '/rag add docs',
      'still 50/50',
      'knowledge base: 50 indexed',
    ]);
    transcript.progress(2, '1/3');
    transcript.progress(2, '3/3');
    expect(transcript.entries.map((e) => ('text' in e ? e.text : '')).slice(-1)).toEqual(['3/3']);
    expect(transcript.entries).toHaveLength(4);
  });
});

describe("print mode's progress line", () => {
  const sink = (isTTY: boolean) => {
    const written: string[] = [];
    return { written, stream: { isTTY, write: (s: string) => written.push(s) > 0 } as never };
  };

  it('on a terminal: one line redrawn in place, ended by the last', () => {
    const { written, stream } = sink(true);
    const show = progressLine(stream);
    show(1, '1/3', false);
    show(1, '2/3 \u001b[2J', false);
    show(1, '3/3', true);
    expect(written).toEqual(['\r1/3\u001b[K', '\r2/3 ^[[2J\u001b[K', '\r3/3\u001b[K\n']);
  });

  it('in a log: at most a line a second, and always the last', () => {
    const { written, stream } = sink(false);
    let t = 0;
    const show = progressLine(stream, () => t);
    for (let i = 1; i <= 30; i++) {
      t = i * 100;
      show(1, `${i}/30`, i === 30);
    }
    expect(written).toEqual(['1/30\n', '11/30\n', '21/30\n', '30/30\n']);
  });
});
