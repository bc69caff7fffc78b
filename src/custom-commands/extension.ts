/**
 * Custom commands as an extension: each loadable command file is a slash command (`/review`,
 * `/frontend:review`) whose run expands the body (expand.ts: arguments, `` !`command` `` through
 * the run_shell tool's own path — policy, question or sandbox — and `@path` includes inside the
 * root) and sends it as the turn. Its `allowed-tools` are pre-approved and its `model` used for
 * that turn only. `/commands [reload]` lists every file found, with the error of a bad one. A
 * name a built-in (or skill) command has is never taken: a notice says so. A reload loads a
 * project file that is new or changed since the person trusted the folder only once they trust it
 * (trust/reload.ts: the face asks the start's trust question, or leaves it out).
 *
 * Only the person grants: the pre-approval holds while the command the person ran expands and its
 * turn runs, and ends with it — the next turn (a queued message, the model's next request after
 * the turn) is back to the rules. Commands run only from the person's input (the input line,
 * `-p`, an ACP prompt); the text sent is the file's, not typed (`byPerson` false), so a `$skill`
 * in a command file grants nothing.
 */
import { randomUUID } from 'node:crypto';
import type { SlashCommand } from '../commands/types.js';
import type { Extension, ExtensionSetup } from '../extensions/types.js';
import type { ToolExecutor } from '../tools/executor.js';
import { outputToText } from '../tools/types.js';
import { heldNotice, type ReloadTrust } from '../trust/reload.js';
import { errorMessage } from '../util/errors.js';
import { visible, visibleLine } from '../util/terminal-text.js';
import { toolPatternMatches } from '../util/tool-pattern.js';
import { commandDeclarations } from './declarations.js';
import { type DiscoverOptions, discoverCommands } from './discover.js';
import { expandCommand } from './expand.js';
import { formatCommands } from './format.js';
import { fileIncluder } from './include.js';
import type { CustomCommand } from './parse.js';

/** Names the custom commands never take (/exit is added after every extension). */
const RESERVED = new Set(['exit', 'help', 'commands']);

export type ModelLoan = { ok: true; restore(): void } | { ok: false; message: string };

export interface CustomCommandsOptions extends DiscoverOptions {
  /** The permission root: `@path` includes stay inside it. */
  root: string;
  policies: { setPreApproved(match: ((toolName: string) => boolean) | undefined, source: string): void };
  /** Switches to a command's `model` until `restore` (ModelChoice.borrow). */
  models: { borrow(name: string): ModelLoan };
  /** The run's executor: a `` !`command` `` is a run_shell call like the model's. */
  executor: Pick<ToolExecutor, 'execute'>;
  /** Trust for what a reload finds new or changed; absent: a reload loads what it finds. */
  reloadTrust?: ReloadTrust;
}

interface Grant {
  tools: readonly string[];
  /** The turn's text, once sent: another turn starting ends the grant. */
  text?: string;
  restore?: () => void;
}

export function customCommandsExtension(options: CustomCommandsOptions): Extension {
  let host: ExtensionSetup;
  let commands: CustomCommand[] = [];
  let registered: string[] = [];
  let grant: Grant | undefined;
  const include = fileIncluder({ root: options.root, userDir: options.userDir });

  const end = (ending: Grant) => {
    if (grant === ending) grant = undefined;
    const restore = ending.restore;
    ending.restore = undefined;
    restore?.();
  };

  const runShell = async (command: string, signal: AbortSignal) => {
    const outcome = await options.executor.execute(
      { id: `command-${randomUUID()}`, name: 'run_shell', arguments: JSON.stringify({ command }) },
      signal,
      { onNotice: (message) => host.notice(message) },
    );
    const text = outputToText(outcome.output);
    if (outcome.decision === 'deny' || outcome.decision === 'refused' || signal.aborted)
      return { ok: false as const, reason: text };
    return { ok: true as const, output: text };
  };

  const slashCommand = (command: CustomCommand): SlashCommand => ({
    name: command.name,
    usage: `/${command.name}${command.argumentHint ? ` ${visibleLine(command.argumentHint)}` : ''}`,
    description: `(${command.plugin ? `plugin ${visibleLine(command.plugin)}` : command.source}) ${visibleLine(command.description)}`,
    idleOnly: true,
    run: async (args, ctx) => {
      const mine: Grant = { tools: command.allowedTools };
      grant = mine;
      try {
        const expansion = await expandCommand(command.body, args.join(' '), {
          include,
          run: (line) => runShell(line, ctx.signal),
          // A notice, not command output: print mode's stdout stays the answer (or its JSON).
          note: (message) => host.notice(visibleLine(message)),
        });
        if (!expansion.ok) {
          ctx.print(`/${command.name}: ${visibleLine(expansion.error)}`, 'error');
          return;
        }
        if (!ctx.submit) {
          ctx.print(visible(expansion.text));
          return;
        }
        if (command.model) {
          const loan = options.models.borrow(command.model);
          if (!loan.ok) {
            ctx.print(
              `/${command.name}: model ${visibleLine(command.model)}: ${visibleLine(loan.message)}`,
              'error',
            );
            return;
          }
          mine.restore = loan.restore;
        }
        mine.text = expansion.text;
        await ctx.submit(expansion.text);
      } finally {
        end(mine);
      }
    },
  });

  /** Project files a reload holds back: new or changed since trusted, and not trusted now. */
  const review = async (signal: AbortSignal): Promise<Set<string>> => {
    if (!options.reloadTrust || !options.projectTrusted) return new Set();
    const units = commandDeclarations(options.projectDir).map((item) => ({ id: item.file, items: [item] }));
    return options.reloadTrust.held(units, signal);
  };

  const refresh = async (held: ReadonlySet<string> = new Set()) => {
    commands = await discoverCommands(options, { held });
    for (const name of registered) host.commands.remove(name);
    registered = [];
    for (const command of commands) {
      if (command.status.kind !== 'ok') continue;
      const taken = (name: string) => RESERVED.has(name) || host.commands.has(name);
      // A plugin's command steps aside under its plugin's name rather than not loading.
      if (command.plugin && taken(command.name)) command.name = `${command.plugin}:${command.name}`;
      if (taken(command.name)) {
        command.status = { kind: 'shadowed', by: `the built-in /${command.name}` };
        host.notice(
          `custom command /${visibleLine(command.name)} (${visibleLine(command.file)}) is not loaded: a built-in command has that name (rename the file)`,
        );
        continue;
      }
      host.commands.add(slashCommand(command));
      registered.push(command.name);
    }
    host.changed();
  };

  return {
    name: 'custom-commands',
    // A custom command never takes a name a built-in or skill command has.
    after: ['skills'],
    async setup(setup) {
      host = setup;
      await refresh();
      const untrusted = commands.filter((command) => command.status.kind === 'untrusted').length;
      if (untrusted > 0)
        host.notice(
          `${untrusted} project command${untrusted === 1 ? '' : 's'} not loaded: this folder is not trusted (/commands lists them)`,
        );
      const bad = commands.filter((command) => command.status.kind === 'error').length;
      if (bad > 0)
        host.notice(
          `${bad} custom command file${bad === 1 ? ' has an error' : 's have errors'}: /commands lists ${bad === 1 ? 'it' : 'them'}`,
          'error',
        );
      options.policies.setPreApproved(
        (name) => grant?.tools.some((pattern) => toolPatternMatches(pattern, name)) === true,
        'command',
      );
      // A turn that is not the command's own (a message queued behind it) gets no grant.
      host.on.prompt(async (turn) => {
        if (grant && turn.input !== grant.text) end(grant);
        return undefined;
      });
      host.commands.add({
        name: 'commands',
        usage: '/commands [reload]',
        description:
          'list the custom commands (project, user, .claude) with their files and errors; reload re-reads them',
        run: async (args, ctx) => {
          try {
            if (args[0] === 'reload') {
              const held = await review(ctx.signal);
              await refresh(held);
              if (held.size > 0)
                ctx.print(heldNotice(held.size, 'command', options.reloadTrust?.asks === true), 'error');
            }
            ctx.print(formatCommands(commands, options.projectDir));
          } catch (error) {
            ctx.print(errorMessage(error), 'error');
          }
        },
      });
    },
  };
}
