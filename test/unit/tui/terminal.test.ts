/** While the TUI runs, console output and process warnings become transcript lines, not screen writes. */
import { describe, expect, it, vi } from 'vitest';
import { captureOutput } from '../../../src/tui/terminal.js';
import type { LineKind } from '../../../src/tui/types.js';

describe('captureOutput', () => {
  it('routes console calls and warnings to lines, and puts everything back after', async () => {
    const lines: Array<[string, LineKind]> = [];
    const originalLog = console.log;
    const warningListeners = process.listeners('warning').length;
    const release = captureOutput((text, kind) => lines.push([text, kind]));
    try {
      console.log('stray %s', 'output');
      console.error('a failure\n');
      process.emitWarning('something is deprecated');
      await vi.waitFor(() => expect(lines).toHaveLength(3));
    } finally {
      release();
    }
    expect(lines).toEqual([
      ['stray output', 'system'],
      ['a failure', 'error'],
      ['warning: Warning: something is deprecated', 'system'],
    ]);
    expect(console.log).toBe(originalLog);
    expect(process.listeners('warning')).toHaveLength(warningListeners);
  });
});
