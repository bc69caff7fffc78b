/**
 * Terminal escapes from untrusted sources never reach the terminal raw: print mode's text output
 * (answer on stdout, progress on stderr) and `geekagent mcp list/get/call` show them as `^[`,
 * while `--output-format json` keeps the exact text (escaped by JSON itself).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, FIXTURE_SERVERS, parseJsonOutput, type RunResult, runCli } from './harness.js';

const ESC = '\u001b';
const BEL = '\u0007';
const CLIPBOARD = `${ESC}]52;c;ZXZpbA==${BEL}`;
const CLIPBOARD_SHOWN = '^[]52;c;ZXZpbA==^G';
const ESCAPES = path.join(FIXTURE_SERVERS, 'escapes.mjs');
/** A server name is any text without whitespace or `/`: this one sets the window title. */
const DEAD = `dead${ESC}]0;t${BEL}`;

const fx = cliFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

/** No C0/C1 control byte except newline in the run's output: nothing the terminal would act on. */
function expectNoControls(run: RunResult): void {
  for (const [stream, text] of [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
  ] as const) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
    const found = text.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(found, `${stream} holds a raw ${JSON.stringify(found?.[0])}:\n${text}`).toBeNull();
  }
}

async function escapeServers(): Promise<void> {
  await fx.project.mcpServers({
    // Eager: every run starts it, so `/mcp logs` in a later run has its stderr (not a cached idle server).
    esc: { command: process.execPath, args: [ESCAPES], startup: 'eager' },
    [DEAD]: { command: process.execPath, args: [ESCAPES, `${ESC}[2J`], env: { ESCAPES_DIE: '1' } },
  });
}

describe('print mode text output', () => {
  it('shows escapes in the answer and in tool results as ^[, never raw', async () => {
    await fx.project.write('evil.txt', `file says ${ESC}]0;file-title${BEL}${ESC}[2J hi\n`);
    fx.fake.push(
      { toolCalls: [call('read', { path: 'evil.txt' })] },
      { text: `Done ${CLIPBOARD} and ${ESC}[2J${ESC}[H cleared \u009b31m red` },
    );
    const run = await fx.run(['-p', 'read evil.txt']);
    expect(run.code, run.stderr).toBe(0);
    expectNoControls(run);
    expect(run.stdout).toBe(`Done ${CLIPBOARD_SHOWN} and ^[[2J^[[H cleared <U+009B>31m red\n`);
    expect(run.stderr).toContain('file says ^[]0;file-title^G^[[2J hi');
    expect(run.stderr).toContain('[Calling tool read → ');
  });

  it('--output-format json keeps the exact text, escaped by JSON', async () => {
    fx.fake.push({ text: `Done ${CLIPBOARD}` });
    const run = await fx.run(['-p', 'hi', '--output-format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).toContain('\\u001b]52;c;ZXZpbA==\\u0007');
    expect(parseJsonOutput(run).result).toBe(`Done ${CLIPBOARD}`);
  });

  it('an MCP tool result and the server stderr (/mcp logs) are shown escaped', async () => {
    await escapeServers();
    fx.fake.push({ toolCalls: [call('mcp_esc_evil', {})] }, { text: 'ok' });
    const turn = await fx.run(['-p', 'go', '--allow', 'mcp_esc_evil']);
    expect(turn.code, turn.stderr).toBe(0);
    expectNoControls(turn);
    expect(turn.stderr).toContain(`[Calling tool mcp_esc_evil → result ${CLIPBOARD_SHOWN}^[[2J`);

    const logs = await fx.run(['-p', '/mcp logs esc']);
    expect(logs.code, logs.stderr).toBe(0);
    expectNoControls(logs);
    expect(logs.stdout).toContain(`started ^[]0;log-title^G^[[2J ${CLIPBOARD_SHOWN} ok`);

    const status = await fx.run(['-p', '/mcp']);
    expectNoControls(status);
    expect(status.stdout).toContain('× dead^[]0;t^G: ');
    expect(status.stdout).toContain('dying ^[]0;stderr-title^G^[[2J now');
  });
});

describe('geekagent mcp output', () => {
  it('list shows names, descriptions and start-up errors (stderr) with escapes visible', async () => {
    await escapeServers();
    const run = await runCli(['mcp', 'list'], { project: fx.project });
    // dead failed to start: exit 1, and the stderr line naming it is escaped too.
    expect(run.code, run.stderr).toBe(1);
    expectNoControls(run);
    expect(run.stderr).toContain('failed to connect: dead^[]0;t^G');
    expect(run.stdout).toContain('mcp_esc_evil — Evil ^[]0;desc-title^G^[[2J tool');
    expect(run.stdout).toContain('× dead^[]0;t^G: server exited with code 2 during start-up: dying ^[]0;');
  });

  it('list --json keeps descriptions exact, escaped by JSON', async () => {
    await escapeServers();
    const run = await runCli(['mcp', 'list', '--json'], { project: fx.project });
    expect(run.stdout).not.toContain(ESC);
    const list = JSON.parse(run.stdout) as Array<{ name: string; tools: Array<{ description: string }> }>;
    expect(list.find((server) => server.name === 'esc')?.tools[0]?.description).toBe(
      `Evil ${ESC}]0;desc-title${BEL}${ESC}[2J tool`,
    );
    expect(list.some((server) => server.name === DEAD)).toBe(true);
  });

  it('get shows the server name, command line and error with escapes visible', async () => {
    await escapeServers();
    const run = await runCli(['mcp', 'get', DEAD], { project: fx.project });
    expect(run.code, run.stderr).toBe(0);
    expectNoControls(run);
    expect(run.stdout).toContain('× dead^[]0;t^G: ');
    expect(run.stdout).toContain(`command: ${process.execPath} ${ESCAPES} ^[[2J`);
  });

  it('call shows results, error results and tool names with escapes visible', async () => {
    await escapeServers();
    const ok = await runCli(['mcp', 'call', 'esc', 'evil'], { project: fx.project });
    expect(ok.code, ok.stderr).toBe(0);
    expectNoControls(ok);
    expect(ok.stdout).toBe(
      `result ${CLIPBOARD_SHOWN}^[[2J ^[]8;;http://x.test^[\\link^[]8;;^[\\ <U+009B>31m done\n`,
    );

    const failed = await runCli(['mcp', 'call', 'esc', 'fails'], { project: fx.project });
    expect(failed.code).toBe(1);
    expectNoControls(failed);
    expect(failed.stderr).toContain('failed ^[]0;error-title^G');

    const missing = await runCli(['mcp', 'call', 'esc', 'nope'], { project: fx.project });
    expect(missing.code).toBe(1);
    expectNoControls(missing);
    expect(missing.stderr).toContain('its tools: evil, odd^[[31mname, fails');
  });
});
