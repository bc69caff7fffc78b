/**
 * The interactive TUI end to end: the built CLI in a real pty, read through a headless xterm,
 * against the scripted fake model and real MCP servers (the demo server, the hang fixture).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { descendants, isAlive, waitFor } from '../helpers/wait.js';
import { answersFileOf, DEMO_SERVER, FIXTURE_SERVERS, userProjectDirOf } from './harness.js';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const fx = tuiFixture();
const start = fx.start;

const demo = () => fx.project.mcpServers({ demo: { command: process.execPath, args: [DEMO_SERVER] } });
const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
const count = (text: string, needle: string) => text.split(needle).length - 1;
/** The bottom line of the screen: the input line. */
const inputLine = (tui: PtySession) => tui.screen().trimEnd().split('\n').pop() ?? '';

describe('the TUI', () => {
  it('greets, shows the panel and MCP demo(2) once the server is up', async () => {
    await demo();
    const tui = start();
    await tui.waitFor('MCP demo(2)');
    const screen = tui.screen();
    expect(screen).toContain('GeekAgent — MCP-first terminal agent');
    expect(screen).toContain('Type /help for commands.');
    const labels = [
      'Model openai · fake-model',
      'Session ',
      'Root ',
      'Instructions none',
      'MCP demo(2)',
      'Context ',
      'Total ',
    ];
    const positions = labels.map((label) => screen.indexOf(label));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('/mcp lists the demo server with both discovered tools', async () => {
    await demo();
    const tui = start();
    await tui.waitFor('MCP demo(2)');
    tui.send('/mcp');
    tui.send(KEYS.enter);
    await tui.waitFor('demo (2 tools)');
    expect(tui.screen()).toContain('mcp_demo_word_count');
    expect(tui.screen()).toContain('mcp_demo_dice');
    expect(tui.screen()).toContain('You › /mcp');
  });

  it("runs the seed's prompt: asks for each MCP call, y to both, shows both results", async () => {
    await demo();
    fx.fake.push(
      {
        toolCalls: [
          call('mcp_demo_dice', {}),
          call('mcp_demo_word_count', { text: 'Model Context Protocol' }),
        ],
      },
      { text: 'The die rolled. "Model Context Protocol" has **22 characters** and 3 words.' },
    );
    const tui = start({ rows: 40 });
    await tui.waitFor('MCP demo(2)');
    tui.send('Roll the die once, then count the characters and words in the phrase "Model Context Protocol"');
    tui.send(KEYS.enter);
    await tui.waitFor('About to call MCP tool: mcp_demo_dice (from server demo)');
    await tui.waitUntil(
      () => inputLine(tui).startsWith('Confirm execution? [y/N/a]'),
      'the prompt in the input line',
    );
    tui.send('y');
    await tui.waitFor('About to call MCP tool: mcp_demo_word_count (from server demo)');
    await tui.waitFor('"text": "Model Context Protocol"');
    tui.send('y');
    await tui.waitFor('has 22 characters and 3 words.');
    const screen = tui.screen();
    expect(screen).toContain('[Calling tool mcp_demo_word_count → Characters 22, words 3]');
    expect(screen).toMatch(/\[Calling tool mcp_demo_dice → Roll: [1-6]\]/);
    expect(count(screen, 'Confirm execution? [y/N/a] → y')).toBe(2);
    expect(inputLine(tui)).toMatch(/^›/);
  });

  it("answering a saves the allow rule in the person's state, and the next call does not ask", async () => {
    await demo();
    fx.fake.push(
      { toolCalls: [call('mcp_demo_dice', {})] },
      { text: 'First roll done.' },
      { toolCalls: [call('mcp_demo_dice', {})] },
      { text: 'Second roll done.' },
    );
    const tui = start({ rows: 40 });
    await tui.waitFor('MCP demo(2)');
    tui.send('roll');
    tui.send(KEYS.enter);
    await tui.waitFor('About to call MCP tool: mcp_demo_dice');
    tui.send('a');
    await tui.waitFor('First roll done.');
    expect(tui.screen()).toContain('Confirm execution? [y/N/a] → a');
    const answers = JSON.parse(await readFile(answersFileOf(fx.project), 'utf8'));
    // Saved under the tool's identity (server demo, tool dice), not its model-facing name.
    expect(answers.tools['mcp:demo/dice']).toBe('allow');
    // Nothing written into the project's own config.
    await expect(readFile(path.join(fx.project.dir, '.geekagent', 'GeekAgent.json'))).rejects.toThrow(
      /ENOENT/,
    );

    tui.send('roll again');
    tui.send(KEYS.enter);
    await tui.waitFor('Second roll done.');
    const screen = tui.screen();
    expect(count(screen, 'About to call MCP tool: mcp_demo_dice')).toBe(1);
    expect(count(screen, '[Calling tool mcp_demo_dice → Roll:')).toBe(2);
  });

  it('Esc cancels a hanging MCP call (the server is told), and the next message works', async () => {
    const cancelLog = path.join(fx.project.dir, 'cancelled.log');
    await fx.project.mcpServers({
      hang: {
        command: process.execPath,
        args: [path.join(FIXTURE_SERVERS, 'hang.mjs')],
        env: { CANCEL_LOG: cancelLog },
      },
    });
    await fx.project.tools({ 'mcp_hang_*': 'allow' });
    fx.fake.push({ toolCalls: [call('mcp_hang_hang', {})] }, { text: 'Still here after the cancel.' });
    const tui = start();
    await tui.waitFor('MCP hang(3)');
    tui.send('hang please');
    tui.send(KEYS.enter);
    await tui.waitFor(/mcp_hang_hang \d+\.\ds/);
    tui.send(KEYS.escape);
    await tui.waitFor('[Calling tool mcp_hang_hang → cancelled]');
    await tui.waitFor(/^cancelled\s/m);
    await waitFor(() => readFileOrEmpty(cancelLog).includes('cancelled'), {
      what: 'notifications/cancelled at the server',
    });

    tui.send('are you there?');
    tui.send(KEYS.enter);
    await tui.waitFor('Still here after the cancel.');
  });

  it('shows MCP progress as a bar with the server message while the tool runs', async () => {
    await fx.project.mcpServers({
      hang: { command: process.execPath, args: [path.join(FIXTURE_SERVERS, 'hang.mjs')] },
    });
    await fx.project.tools({ 'mcp_hang_*': 'allow' });
    fx.fake.push(
      { toolCalls: [call('mcp_hang_slow', { steps: 4, intervalMs: 400 })] },
      { text: 'Slow one finished.' },
    );
    const tui = start();
    await tui.waitFor('MCP hang(3)');
    tui.send('go slowly');
    tui.send(KEYS.enter);
    await tui.waitFor(/\[█+░+\] (25|50|75)% step [123] of 4/);
    await tui.waitFor('[Calling tool mcp_hang_slow → done after 4 steps]');
    await tui.waitFor('Slow one finished.');
    expect(tui.screen()).not.toMatch(/░\]/);
  });

  it('queues a message typed while a turn runs and sends it afterwards', async () => {
    await fx.project.mcpServers({
      hang: { command: process.execPath, args: [path.join(FIXTURE_SERVERS, 'hang.mjs')] },
    });
    await fx.project.tools({ 'mcp_hang_*': 'allow' });
    fx.fake.push({ toolCalls: [call('mcp_hang_hang', {})] }, { text: 'Answer to the queued one.' });
    const tui = start();
    await tui.waitFor('MCP hang(3)');
    tui.send('hang please');
    tui.send(KEYS.enter);
    await tui.waitFor(/mcp_hang_hang \d+\.\ds/);
    tui.send('and then this');
    tui.send(KEYS.enter);
    await tui.waitFor('queued › and then this');
    tui.send(KEYS.ctrlC);
    await tui.waitFor('Answer to the queued one.');
    expect(tui.screen()).toContain('You › and then this');
    expect(tui.screen()).not.toContain('queued ›');
    expect(fx.fake.requests).toHaveLength(2);
  });

  it('hides the panel on a narrow terminal and lays out again on resize', async () => {
    await demo();
    const tui = start({ cols: 50 });
    await tui.waitFor('GeekAgent — MCP-first terminal agent');
    expect(tui.screen()).not.toContain('Model openai · fake-model');
    tui.resize(100, 30);
    await tui.waitFor('MCP demo(2)');
    // 80 columns: the transcript gets them all (issue 41).
    tui.resize(80, 24);
    await tui.waitUntil(
      (s) => !s.includes('Model openai · fake-model') && s.includes('GeekAgent'),
      'the panel to go',
    );
    tui.resize(90, 30);
    await tui.waitFor('Model openai · fake-model');
    // No panel row wraps: the memory row is one short value.
    expect(tui.screen()).toMatch(/│ Memory 0 entries\s*$/m);
  });

  it('/exit stops every server, restores the terminal, leaves the transcript in it and prints bye', async () => {
    await demo();
    const tui = start();
    await tui.waitFor('MCP demo(2)');
    const server = await waitFor(
      () => descendants(tui.pid).find((pid) => commandLine(pid).includes('demo-server.mjs')),
      {
        what: 'the demo server process',
      },
    );
    tui.send('/exit');
    tui.send(KEYS.enter);
    await tui.waitFor(/^bye$/m);
    expect(await tui.exited()).toBe(0);
    // Back on the normal screen (no panel, no input line), with the conversation above `bye`.
    expect(tui.output()).toContain('\u001b[?1049l');
    expect(tui.screen()).not.toContain('│ Model');
    expect(tui.screen()).toMatch(/^GeekAgent — MCP-first terminal agent\n(.*\n)*You › \/exit\nbye$/m);
    await waitFor(() => !isAlive(server), { what: 'the demo server to end' });
  });

  it('Ctrl+D exits, and ↑ recalls the previous input after a restart', async () => {
    // Tall enough for the whole /help list (it grows with every feature's commands).
    const first = start({ rows: 60 });
    await first.waitFor('GeekAgent — MCP-first');
    first.send('/help');
    first.send(KEYS.enter);
    await first.waitFor('list the commands');
    first.send(KEYS.ctrlD);
    await first.waitFor(/^bye$/m);
    expect(await first.exited()).toBe(0);
    // Kept in the person's own state for this folder, not in the project.
    expect(readFileOrEmpty(path.join(userProjectDirOf(fx.project), 'history'))).toBe('"/help"\n');
    expect(readFileOrEmpty(path.join(fx.project.dir, '.geekagent', 'history'))).toBe('');

    const second = start();
    await second.waitFor('GeekAgent — MCP-first');
    second.send(KEYS.up);
    await second.waitUntil(() => inputLine(second).startsWith('› /help'), 'the recalled input');
  });

  it('keeps a multi-line paste in the buffer instead of submitting each line', async () => {
    fx.fake.push({ text: 'Got both lines.' });
    const tui = start();
    await tui.waitFor('GeekAgent — MCP-first');
    tui.send('\u001b[200~first line\rsecond line\u001b[201~');
    await tui.waitFor(/› first line\n\s+second line/);
    expect(fx.fake.requests).toHaveLength(0);
    tui.send(KEYS.enter);
    await tui.waitFor('Got both lines.');
    const sent = fx.fake.requests[0]!.body.messages.at(-1);
    expect(sent?.content).toBe('first line\nsecond line');
  });

  it('without an API key: the panel says not configured, a message says why, commands still work', async () => {
    const tui = start({ env: { OPENAI_API_KEY: undefined } });
    await tui.waitFor('Model not configured');
    tui.send('hello');
    tui.send(KEYS.enter);
    // The start already said so: wait for the message's own answer, so the next line is typed apart.
    await tui.waitFor('You › hello');
    await tui.waitUntil(
      (screen) => screen.split('OPENAI_API_KEY is not set').length > 2,
      'the message answered that no key is set',
    );
    tui.send('/nope');
    tui.send(KEYS.enter);
    await tui.waitFor('unknown command: /nope');
    expect(fx.fake.requests).toHaveLength(0);
  });

  it('shows a failed turn as an error line and stays usable', async () => {
    fx.fake.push(
      { kind: 'http_error', status: 400, message: 'bad things happened' },
      { text: 'Recovered fine.' },
    );
    const tui = start();
    await tui.waitFor('GeekAgent — MCP-first');
    tui.send('first');
    tui.send(KEYS.enter);
    await tui.waitFor('bad things happened');
    tui.send('second');
    tui.send(KEYS.enter);
    await tui.waitFor('Recovered fine.');
  });
});

function commandLine(pid: number): string {
  return readFileOrEmpty(`/proc/${pid}/cmdline`).replaceAll('\0', ' ');
}

function readFileOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
