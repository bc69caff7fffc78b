/**
 * `/undo` and `/rewind` in the TUI (a real pty) ask before they put back a protected path (issue
 * 38, broken 3): the agent's approved write to `.env` is taken back only after the question —
 * Esc cancels and keeps the step for the next `/undo`, "No" on a rewind leaves the file as it is.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYS, type PtySession, tuiFixture } from './pty.js';

const fx = tuiFixture({ rows: 40, cols: 160, args: ['--allow', 'write'] });

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
const envFile = () => readFile(path.join(fx.project.dir, '.env'), 'utf8');
const inputLine = (tui: PtySession) => tui.screen().trimEnd().split('\n').pop() ?? '';

function type(tui: PtySession, text: string): void {
  tui.send(text);
  tui.send(KEYS.enter);
}

/** The model writes `.env` (a protected path: asked even under --allow write) and the person says yes. */
async function agentWritesEnv(tui: PtySession): Promise<void> {
  fx.fake.push(
    { toolCalls: [call('write', { path: '.env', content: 'MODE=prod\n' })] },
    { text: 'Switched.' },
  );
  await tui.waitFor('Type /help');
  type(tui, 'switch to prod');
  await tui.waitFor('protected path: .env');
  await tui.waitUntil(() => inputLine(tui).startsWith('Confirm execution? [y/N/a]'), 'the approval prompt');
  tui.send('y');
  await tui.waitFor('Switched.');
  expect(await envFile()).toBe('MODE=prod\n');
}

describe('/undo and /rewind of a protected path in the TUI', () => {
  it('/undo asks; Esc cancels and keeps the step, the next /undo asks again and restores', async () => {
    await writeFile(path.join(fx.project.dir, '.env'), 'MODE=dev\n');
    const tui = fx.start();
    await agentWritesEnv(tui);

    type(tui, '/undo');
    await tui.waitFor('Undo: restore .env to what it held before the agent wrote it? It is a protected path');
    tui.send(KEYS.escape);
    await tui.waitFor('undo cancelled: .env left as it is');
    expect(await envFile()).toBe('MODE=prod\n');

    type(tui, '/undo');
    await tui.waitFor('No, leave it as it is and drop this step from the undo history');
    tui.send(KEYS.enter);
    await tui.waitFor('restored .env');
    expect(await envFile()).toBe('MODE=dev\n');
  });

  it('/rewind asks for the protected file; "No" leaves it and says so', async () => {
    await writeFile(path.join(fx.project.dir, '.env'), 'MODE=dev\n');
    const tui = fx.start();
    await agentWritesEnv(tui);

    type(tui, '/rewind');
    await tui.waitFor('Rewind: go back to before which message?');
    tui.send(KEYS.enter);
    await tui.waitFor('Files only');
    // Files only: the third choice.
    tui.send(KEYS.down.repeat(2));
    tui.send(KEYS.enter);
    await tui.waitFor('Rewind: restore .env to what it held before the agent wrote it?');
    tui.send(KEYS.down);
    tui.send(KEYS.enter);
    await tui.waitFor('protected, left as they are (you said no): .env');
    expect(await envFile()).toBe('MODE=prod\n');
  });
});
