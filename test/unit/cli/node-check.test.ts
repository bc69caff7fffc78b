/** The oldest Node the CLI runs on: one line for anything older, and package.json says the same. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIN_NODE, nodeTooOld } from '../../../src/cli/launch/node-check.js';

describe('nodeTooOld', () => {
  it('accepts 22.12 and later', () => {
    for (const version of ['22.12.0', '22.20.1', '23.0.0', '24.22.3', '26.1.0'])
      expect(nodeTooOld(version), version).toBeUndefined();
  });

  it('names the minimum and the running version for anything older', () => {
    for (const version of ['22.11.0', '22.1.0', '20.19.5', '18.0.0', '8.9.4'])
      expect(nodeTooOld(version)).toBe(
        `geekagent needs Node.js >=22.12; this is Node.js ${version}. Install Node.js 24 or 22 (https://nodejs.org).`,
      );
  });

  it("is package.json's engines", () => {
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'));
    expect(pkg.engines.node).toBe(`>=${MIN_NODE}`);
  });
});
