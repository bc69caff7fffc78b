/**
 * The served tool set and its annotation table stay in step: every tool `mcp serve` builds has
 * hints (a new tool is not served silently without them), and no hint names a tool that is gone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVED_TOOL_HINTS } from '../../../src/serve/hints.js';
import { createToolSet } from '../../../src/serve/tool-set.js';
import { trustedForRun } from '../../../src/trust/decide.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'geekagent-serve-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('the served tool set', () => {
  it('annotates every tool it builds, and the table names no other tool', async () => {
    const notices: string[] = [];
    const set = await createToolSet({
      projectDir: base,
      homeDir: base,
      env: { GEEKAGENT_HOME: path.join(base, 'state') },
      trust: trustedForRun(base),
      allow: [],
      deny: [],
      allowProtected: [],
      // This test is about the tool table; the sandbox's own notices are sandbox-mcp's.
      sandboxMode: 'off',
      approver: { ask: async () => 'no', refusalMessage: () => 'no' },
      notice: (message) => notices.push(message),
    });
    try {
      expect(set.unannotated).toEqual([]);
      expect(set.tools.map((served) => served.tool.name).sort()).toEqual(
        Object.keys(SERVED_TOOL_HINTS).sort(),
      );
      expect(set.root).toBe(base);
      expect(notices).toEqual([]);
    } finally {
      await set.dispose();
    }
  });

  it('never claims a read-only tool is destructive or idempotent (meaningless under the spec)', () => {
    for (const [name, hints] of Object.entries(SERVED_TOOL_HINTS)) {
      if (hints.readOnlyHint) {
        expect(hints.destructiveHint, name).toBeUndefined();
        expect(hints.idempotentHint, name).toBeUndefined();
      } else {
        expect(typeof hints.destructiveHint, name).toBe('boolean');
        expect(typeof hints.idempotentHint, name).toBe('boolean');
      }
    }
  });
});
