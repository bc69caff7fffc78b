/**
 * The sandbox tests' gate: on a machine without bubblewrap/socat/ripgrep `npm test` skips them
 * with a line naming what is missing and how to install it; under CI=true they run (and fail).
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxGate } from '../../helpers/sandbox-gate.js';

const empty = mkdtempSync(path.join(os.tmpdir(), 'gate-path-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe.runIf(process.platform === 'linux')('sandboxGate', () => {
  it('skips where the programs are missing, naming each package and the install command', () => {
    const gate = sandboxGate({ PATH: empty });
    expect(gate.run).toBe(false);
    expect(gate.reason).toContain('bwrap (bubblewrap)');
    expect(gate.reason).toContain('socat (socat)');
    expect(gate.reason).toContain('rg (ripgrep)');
    expect(gate.reason).toContain('apt-get install bubblewrap socat ripgrep');
  });

  it('names only what is missing', () => {
    const dir = mkdtempSync(path.join(empty, 'some-'));
    symlinkSync('/bin/true', path.join(dir, 'socat'));
    const gate = sandboxGate({ PATH: dir });
    expect(gate.reason).toContain('apt-get install bubblewrap ripgrep');
    expect(gate.reason).not.toContain('socat (socat)');
  });

  it('refuses to skip under CI=true: the tests run and fail with the reason', () => {
    const gate = sandboxGate({ PATH: empty, CI: 'true' });
    expect(gate.run).toBe(true);
    expect(gate.reason).toContain('missing bwrap');
  });
});
