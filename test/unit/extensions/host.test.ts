/**
 * The extension host's order (src/extensions/host.ts): hooks run in the order extensions were
 * added, input rewrites chain, panel rows sort by their number, /help comes first and /exit last,
 * a failing event listener becomes a notice without stopping the others, notices given before a
 * face listens reach its first listener, and dispose runs newest first past a failure.
 */
import { describe, expect, it } from 'vitest';
import type { TurnScope } from '../../../src/agent/turn-points.js';
import { ExtensionHost } from '../../../src/extensions/host.js';
import type { Extension } from '../../../src/extensions/types.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { Tool } from '../../../src/tools/types.js';

const host = () =>
  new ExtensionHost({ registry: new ToolRegistry(), policies: { ensureToolPolicy: () => {} } });
const turn: TurnScope = { input: 'hi', signal: new AbortController().signal, notify: () => {} };
const tool = (name: string): Tool =>
  ({
    name,
    description: name,
    parameters: { type: 'object', properties: {} },
    run: async () => '',
  }) as unknown as Tool;

describe('ExtensionHost', () => {
  it('runs prompt sections, input rewrites and before-request hooks in the order extensions were added', async () => {
    const extensions = host();
    const log: string[] = [];
    const ext = (name: string): Extension => ({
      name,
      setup(setup) {
        setup.on.prompt(async () => ({ order: name === 'a' ? 50 : 10, text: name }));
        setup.on.input(async (input) => `${input}>${name}`);
        setup.on.beforeRequest(async () => void log.push(name));
      },
    });
    await extensions.add(ext('a'), ext('b'));
    await extensions.add(ext('c'));
    expect((await extensions.turnPoints.promptSections(turn)).map((section) => section.text)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(await extensions.turnPoints.prepareInput('x', turn)).toBe('x>a>b>c');
    await extensions.turnPoints.beforeRequest({} as never);
    expect(log).toEqual(['a', 'b', 'c']);
    expect(extensions.names).toEqual(['a', 'b', 'c']);
  });

  it('sorts panel rows by their number and hides undefined ones', async () => {
    const extensions = host();
    let hidden = true;
    await extensions.add({
      name: 'rows',
      setup(setup) {
        setup.panel(() => ({ label: 'late', value: '1', order: 90 }));
        setup.panel(() => (hidden ? undefined : { label: 'maybe', value: '2', order: 50 }));
        setup.panel(() => ({ label: 'early', value: '3', order: 10 }));
      },
    });
    expect(extensions.panelRows().map((row) => row.label)).toEqual(['early', 'late']);
    hidden = false;
    expect(extensions.panelRows().map((row) => row.label)).toEqual(['early', 'maybe', 'late']);
  });

  it('lists /help first and /exit last, once sealed; a command change tells the faces', async () => {
    const extensions = host();
    let changes = 0;
    extensions.onChange(() => changes++);
    await extensions.add({
      name: 'cmds',
      setup(setup) {
        setup.commands.add({ name: 'zeta', usage: '/zeta', description: '', run: async () => {} });
      },
    });
    extensions.seal();
    extensions.seal();
    expect(extensions.commands.list().map((command) => command.name)).toEqual(['help', 'zeta', 'exit']);
    expect(changes).toBe(1);
  });

  it('a throwing event listener becomes an error notice and the next listener still hears the event', async () => {
    const extensions = host();
    const heard: string[] = [];
    await extensions.add({
      name: 'events',
      setup(setup) {
        setup.on.event(() => {
          throw new Error('listener broke');
        });
        setup.on.event((event) => void heard.push(event.type));
        setup.notice('said during setup');
      },
    });
    const notices: string[] = [];
    extensions.turnPoints.onEvent({ type: 'turn_start' } as never);
    extensions.onNotice((message, kind) => notices.push(`${kind}: ${message}`));
    expect(heard).toEqual(['turn_start']);
    expect(notices).toEqual([
      'system: said during setup',
      'error: extension failed on a turn event: listener broke',
    ]);
  });

  it('combines every tool filter: a tool is visible only when all say so', async () => {
    const registry = new ToolRegistry();
    const extensions = new ExtensionHost({ registry, policies: { ensureToolPolicy: () => {} } });
    await extensions.add({
      name: 'tools',
      setup(setup) {
        for (const name of ['keep', 'no_a', 'no_b']) setup.tools.add(tool(name), 'allow');
        setup.on.toolFilter((candidate) => candidate.name !== 'no_a');
        setup.on.toolFilter((candidate) => candidate.name !== 'no_b');
      },
    });
    expect(registry.visible().map((candidate) => candidate.name)).toEqual(['keep']);
  });

  it('starts extensions once, and disposes them newest first past a failing one', async () => {
    const extensions = host();
    const log: string[] = [];
    const ext = (name: string, fails = false): Extension => ({
      name,
      setup: () => {},
      start: () => void log.push(`start ${name}`),
      dispose: async () => {
        log.push(`dispose ${name}`);
        if (fails) throw new Error(`${name} would not stop`);
      },
    });
    await extensions.add(ext('first'), ext('second', true), ext('third'));
    const notices: string[] = [];
    extensions.onNotice((message) => notices.push(message));
    extensions.start();
    extensions.start();
    await extensions.dispose();
    expect(log).toEqual([
      'start first',
      'start second',
      'start third',
      'dispose third',
      'dispose second',
      'dispose first',
    ]);
    expect(notices).toEqual(['second: second would not stop']);
  });
});
