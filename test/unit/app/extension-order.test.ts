/**
 * The agent's extensions as createApp sets them up: the order their declarations (`after` /
 * `before`) give — hooks before every prompt section, tool search and compaction after MCP, skills
 * after every extension with commands, custom commands after skills — and App holds only what the
 * faces read.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app/create-app.js';
import { ProcessGroupTracker } from '../../../src/process/group-tracker.js';
import { trustedForRun } from '../../../src/trust/decide.js';

let base: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'geekagent-extension-order-'));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('createApp', () => {
  it('sets up the extensions in their declared order', async () => {
    const tracker = new ProcessGroupTracker({ reaper: false });
    const app = await createApp({
      cwd: base,
      homeDir: path.join(base, 'home'),
      trust: trustedForRun(base),
      env: { OPENAI_API_KEY: 'k', GEEKAGENT_SANDBOX: 'off' },
      approver: { ask: async () => ({ kind: 'deny' }) } as never,
      tracker,
    });
    try {
      const names = app.extensions.names;
      const at = (name: string) => {
        expect(names).toContain(name);
        return names.indexOf(name);
      };
      for (const later of ['project-instructions', 'memory', 'tool-search', 'todos', 'approval-mode'])
        expect(at('hooks')).toBeLessThan(at(later));
      expect(at('mcp')).toBeLessThan(at('tool-search'));
      expect(at('tool-search')).toBeLessThan(at('compaction'));
      for (const first of names.filter((name) => name !== 'skills' && name !== 'custom-commands'))
        expect(at(first)).toBeLessThan(at('skills'));
      expect(at('skills')).toBeLessThan(at('custom-commands'));
      // The faces' view: no policies, executor, undo or redactor (reached through extensions).
      for (const inner of ['policies', 'executor', 'undo', 'redact', 'homeDir', 'trust', 'permissions'])
        expect(inner in app).toBe(false);
      expect(app.root).toBe(base);
    } finally {
      await app.shutdown();
      tracker.dispose();
    }
  });
});
