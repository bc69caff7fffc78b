/**
 * The turn controller both faces use (src/app/turn-controller.ts), on a stand-in agent whose turns
 * finish when the test says: commands run at once, messages wait behind the running turn and run in
 * order, cancel and close stop what runs, every outcome is one of the union's kinds, and a
 * non-interactive face's command waits for the extensions' ready (known) or settled (not known yet).
 */
import { describe, expect, it } from 'vitest';
import type { TurnOptions, TurnResult } from '../../../src/agent/agent.js';
import {
  type TurnApp,
  TurnController,
  type TurnFace,
  type TurnOutcome,
} from '../../../src/app/turn-controller.js';
import { ExtensionHost } from '../../../src/extensions/host.js';
import { ToolRegistry } from '../../../src/tools/registry.js';

interface Pending {
  input: string;
  options: TurnOptions;
  finish(text: string): void;
  fail(error: unknown): void;
}

function setup(options: { apiKey?: string } = {}) {
  const pending: Pending[] = [];
  const started: string[] = [];
  const agent = {
    runTurn: (input: string, turn: TurnOptions) =>
      new Promise<TurnResult>((resolve, reject) => {
        started.push(input);
        const item: Pending = {
          input,
          options: turn,
          finish: (text) =>
            resolve({
              status: 'completed',
              text,
              toolCalls: [],
              usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
            }),
          fail: reject,
        };
        turn.signal.addEventListener('abort', () =>
          reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
        );
        pending.push(item);
      }),
  };
  const extensions = new ExtensionHost({
    registry: new ToolRegistry(),
    policies: { ensureToolPolicy: () => {} },
  });
  const printed: Array<[string, string]> = [];
  const ended: Array<[string, TurnOutcome]> = [];
  const queues: string[][] = [];
  const face: TurnFace = {
    print: (text, kind) => printed.push([kind, text]),
    exit: () => printed.push(['exit', '']),
    turnEnded: (input, outcome) => ended.push([input, outcome]),
    queueChanged: (queued) => queues.push([...queued]),
  };
  const app = {
    agent,
    settings: { apiKey: 'apiKey' in options ? options.apiKey : 'key', keyVariable: 'OPENAI_API_KEY' },
    extensions,
  } as unknown as TurnApp;
  const controller = new TurnController(app, face);
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setImmediate(resolve));
  };
  return { controller, extensions, pending, started, printed, ended, queues, until };
}

describe('TurnController', () => {
  it('queues messages behind the running turn and runs them in order, typed by the person', async () => {
    const t = setup();
    const first = t.controller.submit('one');
    await t.until(() => t.pending.length === 1);
    expect(t.controller.busy).toBe(true);
    await t.controller.submit('two');
    await t.controller.submit('three');
    expect(t.controller.queued).toEqual(['two', 'three']);
    t.pending[0]!.finish('answer one');
    await first;
    await t.until(() => t.pending.length === 2);
    expect(t.started).toEqual(['one', 'two']);
    expect(t.pending[1]!.options.byPerson).toBe(true);
    t.pending[1]!.finish('answer two');
    await t.until(() => t.pending.length === 3);
    t.pending[2]!.finish('answer three');
    await t.until(() => t.ended.length === 3);
    expect(t.ended.map(([input, outcome]) => `${input}:${outcome.kind}`)).toEqual([
      'one:completed',
      'two:completed',
      'three:completed',
    ]);
    expect(t.queues).toEqual([['two'], ['two', 'three'], ['three'], []]);
  });

  it('cancel ends the running turn as cancelled; close drops what was queued', async () => {
    const t = setup();
    const running = t.controller.submit('long');
    await t.until(() => t.pending.length === 1);
    await t.controller.submit('queued');
    t.controller.close();
    await running;
    expect(t.ended).toEqual([['long', { kind: 'cancelled' }]]);
    expect(t.started).toEqual(['long']);
    await t.controller.submit('after close');
    expect(t.started).toEqual(['long']);
  });

  it('a failing turn is failed with the wording faces show; no key is not_configured and sends nothing', async () => {
    const t = setup();
    const turn = t.controller.runTurn('x');
    await t.until(() => t.pending.length === 1);
    t.pending[0]!.fail(new Error('boom'));
    const outcome = await turn;
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' && outcome.message).toContain('boom');

    const keyless = setup({ apiKey: undefined });
    const none = await keyless.controller.runTurn('hello');
    expect(none.kind).toBe('not_configured');
    expect(none.kind === 'not_configured' && none.message).toContain('OPENAI_API_KEY');
    expect(keyless.started).toEqual([]);
  });

  it('runs commands at once, refuses an idle-only one while a turn runs, and says so for an unknown one', async () => {
    const t = setup();
    const ran: string[][] = [];
    await t.extensions.add({
      name: 'test',
      setup(host) {
        host.commands.add({
          name: 'echo',
          usage: '/echo',
          description: '',
          run: async (args) => void ran.push(args),
        });
        host.commands.add({
          name: 'tidy',
          usage: '/tidy',
          description: '',
          idleOnly: true,
          run: async () => void ran.push(['tidy']),
        });
      },
    });
    const running = t.controller.submit('busy');
    await t.until(() => t.pending.length === 1);
    await t.controller.submit('/echo a b');
    expect(await t.controller.runCommand('/tidy')).toBe(false);
    expect(await t.controller.runCommand('/nope')).toBe(false);
    expect(ran).toEqual([['a', 'b']]);
    expect(t.printed.map(([kind, text]) => `${kind}: ${text}`)).toEqual([
      'error: /tidy waits for the running turn: try again when it ends (Esc cancels it)',
      'error: unknown command: /nope (type /help for the list)',
    ]);
    t.pending[0]!.finish('ok');
    await running;
    expect(await t.controller.runCommand('/tidy')).toBe(true);
  });

  it('with waitReady, a known command waits for ready only; one not known yet waits until settled', async () => {
    const t = setup();
    const calls: string[] = [];
    let addLate: (() => void) | undefined;
    await t.extensions.add({
      name: 'servers',
      setup(host) {
        host.commands.add({
          name: 'status',
          usage: '/status',
          description: '',
          needsReady: true,
          run: async (_args, ctx) => ctx.print('status'),
        });
        // A slow server's prompt command: known only once its start-up is over.
        addLate = () =>
          host.commands.add({
            name: 'late',
            usage: '/late',
            description: '',
            run: async (_args, ctx) => ctx.print('late ran'),
          });
      },
      ready: async () => void calls.push('ready'),
      settled: async () => {
        calls.push('settled');
        addLate?.();
      },
    });
    expect(await t.controller.runCommand('/status', { waitReady: true })).toBe(true);
    expect(calls).toEqual(['ready']);
    expect(await t.controller.runCommand('/late', { waitReady: true })).toBe(true);
    expect(calls).toEqual(['ready', 'settled']);
    expect(t.printed).toEqual([
      ['system', 'status'],
      ['system', 'late ran'],
    ]);
  });

  it("a command's submitted text is not the person's unless it is what they typed", async () => {
    const t = setup();
    await t.extensions.add({
      name: 'prompts',
      setup(host) {
        host.commands.add({
          name: 'ask',
          usage: '/ask',
          description: '',
          run: async (args, ctx) => {
            await ctx.submit?.('canned prompt');
            await ctx.submit?.(args.join(' '), { typed: true });
          },
        });
      },
    });
    const command = t.controller.submit('/ask mine');
    await t.until(() => t.pending.length === 1);
    expect(t.pending[0]!.options.byPerson).toBe(false);
    t.pending[0]!.finish('a');
    await t.until(() => t.pending.length === 2);
    expect(t.pending[1]!.input).toBe('mine');
    expect(t.pending[1]!.options.byPerson).toBe(true);
    t.pending[1]!.finish('b');
    await command;
  });
});
