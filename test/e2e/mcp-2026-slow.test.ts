/**
 * A 2026 stdio server slow to start answers the `server/discover` probe only after the probe gave
 * up (5 s on stdio) and the client fell back to `initialize`. It must not be judged a 2025 server:
 * a 2026-only one is not refused as sharing no version, one of both eras is not used (and cached)
 * as a 2025 one. Both connect as 2026 servers, the verdict is cached, and the next start sends no
 * probe. Real SDK v2 fixture servers whose start is held back (`STARTUP_DELAY_MS`).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { cliFixture } from './harness.js';

const STDIO_2026 = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'stdio-2026.mjs');
/** Longer than the stdio probe's 5 s, well within the 30 s start-up timeout. */
const SLOW_START_MS = '6500';

const fx = cliFixture();

async function methods(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}

describe('a 2026 stdio server slow to start', () => {
  it.each([
    ['2026-only', []],
    ['both eras', ['--dual']],
  ])('%s: connects as a 2026 server, and the next start sends no probe', async (_name, extra) => {
    const log = path.join(fx.project.dir, 'methods.log');
    await fx.project.mcpServers({
      slow: {
        command: 'node',
        args: [STDIO_2026, ...extra],
        env: { METHODS_LOG: log, STARTUP_DELAY_MS: SLOW_START_MS },
      },
    });
    const get = await fx.run(['mcp', 'get', 'slow']);
    expect(get.code, get.stdout + get.stderr).toBe(0);
    expect(get.stdout).toContain('  protocol: 2026-07-28 (server/discover)');
    expect(get.stdout).not.toContain('no version in common');
    const serverLog = await readFile(path.join(fx.project.dir, '.geekagent', 'logs', 'slow.log'), 'utf8');
    expect(serverLog).toContain(
      'the server answered server/discover only after the probe had given up (a slow start); starting it again as a 2026-07-28 server',
    );
    const probes = (await methods(log)).filter((m) => m === 'server/discover').length;
    expect(probes).toBe(1);

    const call = await fx.run(['mcp', 'call', 'slow', 'echo', '{"text":"late"}']);
    expect(call.stdout.trim(), call.stderr).toBe('echo: late (modern era)');
    expect((await methods(log)).filter((m) => m === 'server/discover')).toHaveLength(probes);
  });
});
