/**
 * The TUI's first frame comes before the app (issue 18): the input line and the panel are drawn
 * before createApp has built the agent, and what the person does meanwhile counts. The built CLI
 * runs with the watch fixture (test/fixtures/modules/watch.mjs) holding createApp at its read of
 * the project's AGENTS.md (no step before the first frame reads it) until the test opens the gate.
 * And what a TUI start and its first turn call is compiled with the bundles, so Node's compile
 * cache keeps it (the build's start profile, scripts/bundle-plugins/start-profile.mjs).
 */
import { existsSync, readFileSync, watch } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstCallCompiles, logFunctionEvents } from './first-call-compiles.js';
import { REPO_ROOT, userProjectDirOf } from './harness.js';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const WATCH = path.join(REPO_ROOT, 'test', 'fixtures', 'modules', 'watch.mjs');

const fx = tuiFixture();

const inputLine = (tui: PtySession) => tui.screen().trimEnd().split('\n').pop() ?? '';
const logFile = () => path.join(fx.project.home, 'modules.log');
const gateFile = () => path.join(fx.project.home, 'open-app');
const loaded = (): string[] =>
  existsSync(logFile()) ? readFileSync(logFile(), 'utf8').split('\n').filter(Boolean) : [];

/** Resolves once the module log has `line` (watching its folder: no polling). */
function logged(line: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!loaded().includes(line)) return false;
      watcher.close();
      resolve();
      return true;
    };
    const watcher = watch(path.dirname(logFile()), check);
    check();
  });
}

/** Starts the TUI with createApp held at the project's AGENTS.md. */
function startHeld(): PtySession {
  return fx.start({
    env: {
      NODE_OPTIONS: `--import=${WATCH}`,
      MODULE_LOG: logFile(),
      FILE_GATE: `AGENTS.md=${gateFile()}`,
    },
  });
}

/** The first frame: the input line, and the panel saying the app is starting. */
async function firstFrame(tui: PtySession): Promise<void> {
  await tui.waitUntil(
    (screen) => inputLine(tui).startsWith('›') && screen.includes('Model starting…'),
    'the input line and the starting panel',
  );
}

describe('the TUI draws before the app is built', () => {
  it('keys typed while the app loads stay in the input line; a line sent is answered once it is up', async () => {
    const tui = startHeld();
    await firstFrame(tui);
    expect(loaded()).toContain('ink');
    expect(tui.screen()).toContain('GeekAgent — MCP-first terminal agent');
    // createApp has reached the gate: from here the app cannot be up before the test opens it.
    await logged('held AGENTS.md');

    tui.send('hello there');
    await tui.waitUntil(() => inputLine(tui).startsWith('› hello there'), 'the typed text in the input line');
    tui.send(KEYS.enter);
    await tui.waitFor('queued › hello there');
    expect(fx.fake.requests).toHaveLength(0);

    fx.fake.push({ text: 'answered once the app was up' });
    await writeFile(gateFile(), '');
    await tui.waitFor('answered once the app was up', 20_000);
    await tui.waitFor('Model openai · fake-model');
    expect(tui.screen()).not.toContain('queued ›');
    const sent = fx.fake.requests[0]?.body.messages.at(-1);
    expect(sent?.content).toBe('hello there');
  });

  it("↑ recalls the folder's history from the first frame, before the app is built", async () => {
    await mkdir(userProjectDirOf(fx.project), { recursive: true });
    await writeFile(path.join(userProjectDirOf(fx.project), 'history'), '"an earlier question"\n');
    const tui = startHeld();
    await firstFrame(tui);
    tui.send(KEYS.up);
    await tui.waitUntil(() => inputLine(tui).startsWith('› an earlier question'), 'the recalled input');
    expect(loaded()).not.toContain('openai');
  });

  it('Ctrl+C while the app is still loading leaves: terminal restored, bye, exit code 0', async () => {
    const tui = startHeld();
    await firstFrame(tui);
    tui.send(KEYS.ctrlC);
    await tui.waitFor(/^bye$/m);
    expect(await tui.exited()).toBe(0);
    // The alternate screen is gone: the first frame is not what the terminal shows.
    expect(tui.screen()).not.toContain('Model starting…');
  });
});

describe("the TUI's start is compiled with its bundles", () => {
  it('a start, one turn and Ctrl+C leave fewer than 10 functions the build could have compiled with the file', async () => {
    const log = path.join(fx.project.home, 'v8.log');
    fx.fake.push({ text: 'compiled answer' });
    const tui = fx.start({
      nodeArgs: logFunctionEvents(log),
      // Nothing from an earlier run's cache: every function the run calls is compiled, and logged.
      env: { GEEKAGENT_CODE_CACHE: 'off' },
    });
    await tui.waitUntil(() => inputLine(tui).startsWith('›'), 'the input line');
    tui.send(`hi${KEYS.enter}`);
    await tui.waitFor('compiled answer');
    await tui.waitFor('\u2713');
    tui.send(KEYS.ctrlC);
    expect(await tui.exited()).toBe(0);
    const { compiled, couldBeEager } = firstCallCompiles(log);
    // Ink, React and the transcript ran: the log saw them.
    expect(compiled.get('lib/tui.cjs')).toBeGreaterThan(50);
    // A few may differ from the build's own profiled turn (this test's model, home and project).
    for (const [file, count] of couldBeEager) expect(count, file).toBeLessThan(10);
  });
});
