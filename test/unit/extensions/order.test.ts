/**
 * Extensions set up in their declared order (src/extensions/order.ts through ExtensionHost.add):
 * `after` / `before` names decide, whatever the list's order; undeclared ones keep theirs; a name
 * not added, a `before` on one already added, or a cycle is an error naming both extensions. And
 * the seam's PreCompact point: `beforeCompact` hooks of one extension run when another says
 * `compacting`, whichever was added first.
 */
import { describe, expect, it } from 'vitest';
import { ExtensionHost } from '../../../src/extensions/host.js';
import { orderExtensions } from '../../../src/extensions/order.js';
import type { Extension, ExtensionSetup } from '../../../src/extensions/types.js';
import { ToolRegistry } from '../../../src/tools/registry.js';

const host = () =>
  new ExtensionHost({ registry: new ToolRegistry(), policies: { ensureToolPolicy: () => {} } });

const ext = (
  name: string,
  declared: { after?: string[]; before?: string[] } = {},
  setup: (host: ExtensionSetup) => void = () => {},
): Extension => ({ name, ...declared, setup });

const names = (extensions: readonly Extension[]) => extensions.map((extension) => extension.name);

describe('extension order', () => {
  it('follows the declarations whatever the list order, and keeps the list order otherwise', async () => {
    // createApp's dependencies, listed backwards.
    const list = [
      ext('custom-commands', { after: ['skills'] }),
      ext('skills', { after: ['mcp', 'compaction', 'sessions'] }),
      ext('compaction', { after: ['mcp', 'tool-search'] }),
      ext('sessions'),
      ext('tool-search', { after: ['mcp'] }),
      ext('mcp'),
      ext('hooks', { before: ['tool-search', 'skills', 'custom-commands'] }),
    ];
    const extensions = host();
    await extensions.add(...list);
    expect(extensions.names).toEqual([
      'sessions',
      'mcp',
      'hooks',
      'tool-search',
      'compaction',
      'skills',
      'custom-commands',
    ]);
    // Without declarations: exactly as given.
    expect(names(orderExtensions([], [ext('b'), ext('a'), ext('c')]))).toEqual(['b', 'a', 'c']);
  });

  it('runs hooks in the declared order', async () => {
    const extensions = host();
    const log: string[] = [];
    const logging = (name: string, declared: { after?: string[]; before?: string[] }) =>
      ext(name, declared, (setup) => setup.on.beforeRequest(async () => void log.push(name)));
    await extensions.add(logging('compaction', { after: ['mcp'] }), logging('mcp', {}));
    await extensions.turnPoints.beforeRequest({} as never);
    expect(log).toEqual(['mcp', 'compaction']);
  });

  it('counts an extension added earlier as done', async () => {
    const extensions = host();
    await extensions.add(ext('mcp'));
    await extensions.add(ext('tool-search', { after: ['mcp'] }));
    expect(extensions.names).toEqual(['mcp', 'tool-search']);
  });

  it('refuses a name not added, naming both extensions, before any setup', async () => {
    const extensions = host();
    let setUp = false;
    await expect(
      extensions.add(
        ext('first', {}, () => {
          setUp = true;
        }),
        ext('tool-search', { after: ['mpc'] }),
      ),
    ).rejects.toThrow(/extension "tool-search" runs after "mpc", which is not added/);
    expect(setUp).toBe(false);
    expect(() => orderExtensions([], [ext('hooks', { before: ['skils'] })])).toThrow(
      /"hooks" runs before "skils", which is not added/,
    );
    expect(() => orderExtensions(['skills'], [ext('hooks', { before: ['skills'] })])).toThrow(
      /"hooks" runs before "skills", which is already added/,
    );
  });

  it('refuses a cycle, naming the extensions in it', () => {
    expect(() =>
      orderExtensions([], [ext('a', { after: ['b'] }), ext('b', { after: ['a'] }), ext('c')]),
    ).toThrow(/wait for each other: "(a|b)" → "(a|b)" → "\1"/);
    expect(() =>
      orderExtensions(
        [],
        [
          ext('skills', { after: ['compaction'] }),
          ext('compaction', { after: ['hooks'] }),
          ext('hooks', { after: ['skills'] }),
        ],
      ),
    ).toThrow(
      /"skills" → "hooks" → "compaction" → "skills"|"hooks" → "compaction" → "skills" → "hooks"|"compaction" → "skills" → "hooks" → "compaction"/,
    );
  });
});

describe('beforeCompact', () => {
  it("runs every extension's beforeCompact hook when one says compacting, past a failing one", async () => {
    const extensions = host();
    const heard: string[] = [];
    let compacting: ExtensionSetup['compacting'] | undefined;
    const signal = new AbortController().signal;
    await extensions.add(
      // The one that compacts is added first: the hooks are read when it compacts.
      ext('compaction', {}, (setup) => {
        compacting = setup.compacting;
      }),
      ext('failing', {}, (setup) =>
        setup.on.beforeCompact(async () => {
          throw new Error('hook failed');
        }),
      ),
      ext('hooks', {}, (setup) =>
        setup.on.beforeCompact(async (trigger, focus) => void heard.push(`${trigger}:${focus ?? ''}`)),
      ),
    );
    await compacting!('manual', 'keep the plan', signal);
    await compacting!('auto', undefined, signal);
    expect(heard).toEqual(['manual:keep the plan', 'auto:']);
  });
});
