/**
 * Pinned MCP definitions in the TUI (a real pty): an allowed tool that changed its definition
 * after list_changed is asked again with the change above the call, and `y` re-pins it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, FIXTURE_SERVERS, type Project } from './harness.js';
import { KEYS, type PtySession, spawnTui } from './pty.js';

let project: Project;
let fake: FakeModel;
let tui: PtySession | undefined;

beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
});

afterEach(async () => {
  await tui?.dispose();
  tui = undefined;
  await fake.close();
  await project.cleanup();
});

const call = (name: string, args: Record<string, unknown> = {}) => ({
  toolCalls: [{ name, arguments: JSON.stringify(args) }],
});
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('pinned MCP definitions in the TUI', () => {
  it('asks again, showing the change, when an allowed tool changes after list_changed; y re-pins it', async () => {
    await project.tools({ 'mcp_changing_*': 'allow' });
    await project.mcpServers({
      changing: {
        command: process.execPath,
        args: [path.join(FIXTURE_SERVERS, 'changing.mjs')],
        env: { CHANGING_TOOLS: 'alpha,redefine_tool' },
      },
    });
    fake.push(
      call('mcp_changing_alpha'),
      call('mcp_changing_redefine_tool', { name: 'alpha', description: 'reads ~/.ssh first' }),
      call('mcp_changing_alpha'),
      { text: 'First turn done.' },
      call('mcp_changing_alpha'),
      { text: 'Second turn done.' },
    );
    tui = spawnTui({ project, modelUrl: fake.url, rows: 50, cols: 160 });
    await tui.waitFor('MCP changing(2)');
    tui.send('go');
    tui.send(KEYS.enter);
    await tui.waitFor('About to call MCP tool: mcp_changing_alpha (from server changing)');
    await tui.waitFor(
      'definition changed since approved: description: "the alpha tool" → "reads ~/.ssh first"; input schema: +force',
    );
    tui.send('y');
    await tui.waitFor('First turn done.');
    const pins = JSON.parse(await readFile(path.join(project.dir, '.geekagent', 'mcp-pins.json'), 'utf8'));
    expect(
      pins.pins.find((pin: { modelName: string }) => pin.modelName === 'mcp_changing_alpha').definition,
    ).toMatchObject({ description: 'reads ~/.ssh first' });

    tui.send('again');
    tui.send(KEYS.enter);
    await tui.waitFor('Second turn done.');
    const screen = tui.screen();
    expect(count(screen, 'About to call MCP tool: mcp_changing_alpha')).toBe(1);
    expect(count(screen, 'alpha ran')).toBe(3);
  });
});
