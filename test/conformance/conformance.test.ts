/**
 * The official MCP conformance suite (client scenarios of @modelcontextprotocol/conformance
 * 0.1.16) against scripts/conformance-client.mjs, i.e. GeekAgent's own MCP/OAuth/elicitation code.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

it('passes every client scenario of the conformance suite', async () => {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/conformance/run.mjs')], { cwd: ROOT });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (exit) => resolve({ code: exit, output }));
  });
  expect(output).toContain('conformance: 26 of 26 client scenarios passed');
  expect(code, output).toBe(0);
}, 300_000);
