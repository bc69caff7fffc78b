/**
 * Skills as an extension: discovery at start and on `/skills reload`; `/skills`, `/use <name>`
 * (replaces the active set, as the described system's one-at-a-time switch), `/unuse [name]`,
 * `/<name> [message]` for a skill whose name no command has, `$<name>` in the person's message;
 * the model's `use_skill` tool (enum of the skills, policy allow; adds to the active set); the
 * catalog and the active skills' bodies as the `skill` prompt section (re-sent every turn, so
 * compaction never summarises them away) — except a skill the model loaded while its `use_skill`
 * result (which holds the body) is still in the history: the system prompt does not change when the
 * model loads a skill, so the provider's prompt cache holds; the active skills' whitelists as the tool filter (the
 * executor refuses a hidden tool); `allowed-tools` pre-approval; the panel's Skills row. The
 * active set is session state (active.ts); a skill's MCP servers run exactly while it is active.
 *
 * Only the person grants: `allowed-tools` are pre-approved in the turn after `/use`, `/<name>` or
 * `--skill`, or in a turn whose typed message names the skill as `$<name>` — never for a skill the
 * model loads (its tools ask as usual, however often it loads it), never for a sub-agent's calls.
 * A skill the model loads never widens a whitelist of a skill the person activated. The tool
 * filter is the registry's, so a sub-agent's view (subagents/tool-view.ts) keeps to it too.
 */
import type { Conversation } from '../agent/conversation.js';
import type { SlashCommand } from '../commands/types.js';
import { type Extension, type ExtensionSetup, PANEL_ORDER, PROMPT_ORDER } from '../extensions/types.js';
import { TOOL_SEARCH } from '../tool-search/deferred-tools.js';
import type { Tool } from '../tools/types.js';
import { ToolError } from '../tools/types.js';
import { heldNotice, type ReloadTrust } from '../trust/reload.js';
import { errorMessage } from '../util/errors.js';
import { raceAbort } from '../util/race-abort.js';
import { visibleLine } from '../util/terminal-text.js';
import { toolPatternMatches } from '../util/tool-pattern.js';
import { ActiveSkills } from './active.js';
import { activeSkillText, buildCatalog, type Catalog, catalogBudget } from './catalog.js';
import { skillFolderDeclarations } from './declarations.js';
import { type DiscoverOptions, discoverSkills, type Skill } from './discover.js';
import { formatSkills } from './format.js';
import { loadedInHistory, mentionedSkills, USE_SKILL } from './mentions.js';
import { type ListingLines, ServerSkillSet, type ServerSkillSource } from './server-skills.js';
import { SkillServers, type StartSkillServers, type StartupGrace } from './servers.js';
import { skillTool } from './skill-tools.js';

/** Names a skill command may never take (/exit is added after every extension). */
const RESERVED = new Set(['exit', 'help', 'skills', 'use', 'unuse']);

export { mentionedSkills, USE_SKILL } from './mentions.js';
export type { SkillServersHandle } from './servers.js';

export interface SkillsOptions extends DiscoverOptions {
  /** Starts a skill's servers (`mcpFile`); absent: skill servers are not supported here. */
  startServers?: StartSkillServers;
  projectDir: string;
  contextWindow: number;
  /** The run's conversation: the active skills are its session state. */
  conversation: Conversation;
  /** The run's session (its id changes on /new and /open): names the old side file's entry. */
  session: { readonly currentId: string };
  /**
   * Where `allowed-tools` pre-approve tools (policy allow unless a deny rule says otherwise) for
   * the turn the person activates the skill in.
   */
  policies?: { setPreApproved(match: ((toolName: string) => boolean) | undefined): void };
  /** `--skill <name>`: active from the start of this run. */
  initial?: readonly string[];
  /** Trust for what `/skills reload` finds new or changed; absent: a reload loads what it finds. */
  reloadTrust?: ReloadTrust;
  /** Skills MCP servers offer (server-skills.ts); absent: local skills only. */
  serverSkills?: ServerSkillSource;
  /**
   * The run's one MCP start-up grace (mcp/start-grace.ts, the MCP extension's): a skill's servers
   * join the same manager, so they are waited for as long as configured ones. Absent: in full.
   */
  grace?: StartupGrace;
}

/** Every extension with commands of its own: they are set up before skills pick their names. */
const SKILLS_AFTER = [
  'hooks',
  'builtin-tools',
  'project-instructions',
  'memory',
  'rag',
  'mcp',
  'sessions',
  'rewind',
  'model-choice',
  'todos',
  'approval-mode',
  'sandbox',
  'agents',
  'compaction',
] as const;

export function skillsExtension(options: SkillsOptions): Extension {
  const store = new ActiveSkills(options.conversation, options.projectDir);
  /** Activated by the person between turns (/use, /<name>, --skill): pre-approved in the next turn. */
  let pending = new Set<string>();
  /** Pre-approved in the running turn: `pending` at its start, plus the `$<name>` of its message. */
  let granted = new Set<string>();
  let unsubscribe: (() => void) | undefined;
  let skills: Skill[] = [];
  let localSkills: Skill[] = [];
  const fromServers = new ServerSkillSet(options.serverSkills);
  let catalog: Catalog = { text: '', budget: 0, shortened: [] };
  let skillCommands: string[] = [];
  let toolNames: string[] = [];
  const servers = new SkillServers(options.startServers, (message) => host.notice(message, 'error'));
  const syncServers = (wanted: Skill[]) => servers.sync(wanted);
  let host: ExtensionSetup;

  const loadable = () => skills.filter((skill) => skill.status.kind === 'ok');
  const find = (name: string) => loadable().find((skill) => skill.name === name);
  const active = (): Skill[] =>
    store
      .get()
      .map(find)
      .filter((skill): skill is Skill => skill !== undefined);
  /** Applies a change of the active set: servers follow, the panel redraws. */
  const changeActive = async (change: () => void) => {
    change();
    await syncServers(active());
    host.changed();
  };
  /** The active skills that limit the tools: the person's, else (none of theirs limits) the model's. */
  const limiting = (): Skill[] => {
    const model = new Set(store.byModel());
    const on = active().filter((skill) => skill.whitelist);
    const person = on.filter((skill) => !model.has(skill.name));
    return person.length > 0 ? person : on;
  };
  const personLimits = () => {
    const model = new Set(store.byModel());
    return active().some((skill) => skill.whitelist && !model.has(skill.name));
  };

  const skillLoaderTool = (names: string[]): Tool => ({
    name: USE_SKILL,
    description:
      'Load a skill: its instructions (and its folder, for files they mention) are added for the rest of the session. Use when a task matches a skill in the catalog.',
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', enum: names, description: 'the skill to load' } },
      required: ['name'],
      additionalProperties: false,
    },
    run: async (args) => {
      const skill = typeof args.name === 'string' ? find(args.name) : undefined;
      if (!skill) throw new ToolError(`no skill named ${String(args.name)} (one of: ${names.join(', ')})`);
      // The model's choice grants nothing: no pre-approval, and no tool beyond the person's whitelist.
      await changeActive(() => store.addByModel(skill.name));
      const limit = personLimits() && store.byModel().includes(skill.name);
      const note = limit
        ? `\n(The tools stay limited to those of the skills the person activated: ${limiting()
            .flatMap((s) => s.whitelist ?? [])
            .join(', ')})`
        : '';
      return `${activeSkillText(skill)}${note}`;
    },
  });

  /** Project skill folders a reload holds back: new or changed since trusted, and not trusted now. */
  const review = async (signal: AbortSignal): Promise<Set<string>> => {
    if (!options.reloadTrust || !options.projectTrusted) return new Set();
    const units = skillFolderDeclarations(options.projectDir).map(({ dir, items }) => ({ id: dir, items }));
    return options.reloadTrust.held(units, signal);
  };

  const refresh = async (held?: ReadonlySet<string>) => {
    localSkills = await discoverSkills(options, held);
    rebuild();
  };
  /** The servers' skills listed again (servers starting now settle first); rebuilt if they changed. */
  const refreshServers = async (signal: AbortSignal, lines: ListingLines) => {
    if (await fromServers.refresh(signal, lines)) rebuild();
  };
  const printed = (print: (text: string) => void): ListingLines => ({ waiting: print, notice: print });

  const rebuild = () => {
    skills = [...localSkills, ...fromServers.skills];
    catalog = buildCatalog(loadable(), catalogBudget(options.contextWindow));
    host.tools.remove(USE_SKILL);
    const names = loadable().map((skill) => skill.name);
    if (names.length > 0) host.tools.add(skillLoaderTool(names), 'allow');
    for (const name of toolNames) host.tools.remove(name);
    toolNames = loadable().flatMap((skill) => skill.tools.map((tool) => tool.name));
    for (const skill of loadable())
      for (const tool of skill.tools)
        host.tools.add(
          skillTool(skill.name, skill.dir, tool, { ownFolderHidden: skill.source === 'user' }),
          'ask',
        );
    for (const name of skillCommands) host.commands.remove(name);
    skillCommands = [];
    for (const skill of loadable()) {
      // A server's skill is used with /use <server>:<skill> (no command of its own).
      if (skill.server || RESERVED.has(skill.name) || host.commands.has(skill.name)) continue;
      host.commands.add(skillCommand(skill.name));
      skillCommands.push(skill.name);
    }
    host.changed();
  };

  const use = async (name: string | undefined, print: (text: string, kind?: 'error') => void) => {
    const skill = name ? find(name) : undefined;
    if (!skill) {
      const listed = skills.find((candidate) => candidate.name === name);
      print(
        listed
          ? `skill ${visibleLine(name ?? '')} is not loaded (/skills says why)`
          : `no skill named ${visibleLine(name ?? '')} (/skills lists them)`,
        'error',
      );
      return;
    }
    await changeActive(() => store.setByPerson([skill.name], true));
    pending = new Set([skill.name]);
    print(
      `skill ${skill.name} is active${skill.whitelist ? ` (tools: ${visibleLine(skill.whitelist.join(', '))})` : ''}`,
    );
  };

  const skillCommand = (name: string): SlashCommand => ({
    name,
    usage: `/${name} [message]`,
    description: `use the skill ${name} (same as /use ${name}); a message after it is sent as your next turn`,
    idleOnly: true,
    run: async (args, ctx) => {
      await use(name, ctx.print);
      // The rest of the line is the person's own message: the turn the skill is pre-approved in.
      if (args.length > 0 && ctx.submit && store.get().includes(name))
        await ctx.submit(args.join(' '), { typed: true });
    },
  });

  return {
    name: 'skills',
    // A skill's `/<name>` command takes only a name no other extension's command has.
    after: SKILLS_AFTER,
    async setup(setup) {
      host = setup;
      // A cloned repository's own state files choose nothing: the old file only in a trusted folder.
      if (options.projectTrusted) await store.loadLegacy();
      store.adoptLegacy(options.session.currentId);
      await refresh();
      if (options.initial && options.initial.length > 0) {
        const missing = options.initial.filter((name) => !find(name));
        if (missing.length > 0)
          throw new Error(
            `--skill: no loadable skill named ${missing.map(visibleLine).join(', ')} (/skills lists them)`,
          );
        await changeActive(() => store.setByPerson(options.initial ?? [], false));
        for (const name of options.initial) pending.add(name);
        // In the manager before the first request (not settled): its start-up grace and the
        // servers it names as still connecting count them, whichever extension's hook runs first.
        await servers.whenAdded();
      }
      // Another session (/open, /new) or a reset: its own skills, servers and no pre-approval.
      unsubscribe = options.conversation.onChange((change) => {
        const reset = change.type === 'truncate' && change.after === null;
        if (change.type !== 'load' && !reset) return;
        if (change.type === 'load') store.adoptLegacy(options.session.currentId);
        // Looked at once the change is complete: a failed first turn's take-back sets the state again.
        queueMicrotask(() => {
          if (change.type === 'load' || store.get().length === 0) {
            pending = new Set();
            granted = new Set();
          }
          syncServers(active()).then(
            () => host.changed(),
            () => undefined,
          );
        });
      });
      host.on.prompt(async (turn) => {
        await refreshServers(turn.signal, { waiting: turn.waiting ?? turn.notify, notice: turn.notify });
        // A turn starts: what the person activated since the last one is pre-approved in it (and only it).
        granted = pending;
        pending = new Set();
        // `$<name>` in the person's own message activates the skill and pre-approves it for this turn.
        const named = turn.byPerson ? mentionedSkills(turn.input).filter((name) => find(name)) : [];
        if (named.length > 0) {
          await changeActive(() => store.setByPerson(named, false));
          for (const name of named) granted.add(name);
        }
        const inHistory = loadedInHistory(options.conversation.messages);
        const model = new Set(store.byModel());
        const shown = active().filter((skill) => !(model.has(skill.name) && inHistory.has(skill.name)));
        const parts = [catalog.text, ...shown.map(activeSkillText)].filter((text) => text !== '');
        return parts.length > 0 ? { order: PROMPT_ORDER.skill, text: parts.join('\n\n') } : undefined;
      });
      options.policies?.setPreApproved((name) =>
        active().some(
          (skill) =>
            granted.has(skill.name) &&
            skill.preApproved &&
            skill.whitelist?.some((pattern) => toolPatternMatches(pattern, name)),
        ),
      );
      host.on.toolFilter((tool) => {
        // tool_search only loads deferred definitions; what it finds is still filtered here.
        if (tool.name === USE_SKILL || tool.name === TOOL_SEARCH) return true;
        const limits = limiting();
        const allowed = () =>
          limits.some((skill) => skill.whitelist!.some((pattern) => toolPatternMatches(pattern, tool.name)));
        // A skill's own tools and servers' tools are there while it is active, whatever the
        // whitelists — but one the model loaded does not widen a whitelist the person chose.
        if (servers.offers(tool.name) || toolNames.includes(tool.name)) {
          const model = new Set(store.byModel());
          const owners = active().filter(
            (skill) =>
              skill.tools.some((own) => own.name === tool.name) || servers.offers(tool.name, skill.name),
          );
          if (owners.some((skill) => !model.has(skill.name))) return true;
          return owners.length > 0 && (!personLimits() || allowed());
        }
        return limits.length === 0 || allowed();
      });
      // Servers of the active skills are started before a request is built, a sub-agent's too (a
      // skill activated in the round that delegated has its servers for it). As configured servers
      // (issue 45): a slow one does not hold the answer back past the run's start-up grace, and no
      // tool is lost — it is in the MCP manager, so its tools join as they arrive, a call to one
      // waits for it, and on the first request it is named to the model as still connecting. The
      // skill's instructions need not wait: they name its tools, and a call of a starting one waits.
      host.on.beforeRequest(
        async (request) => {
          await syncServers(active());
          await servers.startup(request.signal, options.grace, 'wait');
        },
        { subAgents: 'same' },
      );
      host.panel(() => {
        const names = active().map((skill) => skill.name);
        const found = loadable().length;
        if (found === 0 && names.length === 0) return undefined;
        return {
          label: 'Skills',
          value: `${names.length > 0 ? names.join(', ') : 'none active'} (${found} available)`,
          order: PANEL_ORDER.skills,
        };
      });
      host.commands.add({
        name: 'skills',
        usage: '/skills [reload]',
        description:
          'list the skills found (source, description, tools, status, errors); reload re-reads them',
        run: async (args, ctx) => {
          try {
            await refreshServers(
              ctx.signal,
              printed((text) => ctx.print(text)),
            );
            if (args[0] === 'reload') {
              const held = await review(ctx.signal);
              await refresh(held);
              ctx.print(`skills reloaded: ${loadable().length} available`);
              if (held.size > 0)
                ctx.print(heldNotice(held.size, 'skill', options.reloadTrust?.asks === true), 'error');
            }
            ctx.print(formatSkills(skills, store.get(), catalog, options.projectDir));
          } catch (error) {
            ctx.print(errorMessage(error), 'error');
          }
        },
      });
      host.commands.add({
        name: 'use',
        usage: '/use <name>',
        description: 'make a skill the active one (replaces the active skills)',
        idleOnly: true,
        run: async (args, ctx) => {
          if (args[0]?.includes(':'))
            await refreshServers(
              ctx.signal,
              printed((text) => ctx.print(text)),
            );
          await use(args[0], ctx.print);
        },
      });
      host.commands.add({
        name: 'unuse',
        usage: '/unuse [name]',
        description: 'deactivate a skill (all of them without a name)',
        idleOnly: true,
        run: async (args, ctx) => {
          const current = store.get();
          const name = args[0];
          if (name && !current.includes(name)) {
            ctx.print(`skill ${visibleLine(name)} is not active`, 'error');
            return;
          }
          await changeActive(() => store.set(name ? current.filter((n) => n !== name) : []));
          ctx.print(name ? `skill ${name} deactivated` : 'no skill is active');
        },
      });
    },
    // Commands (print mode's `/mcp`, stream-json's init line) see the active skills' servers as the
    // first request would: up within the start-up grace, the others still starting (`pending`).
    ready: (signal) => servers.startup(signal, options.grace, 'over'),
    // A command not known yet may be a slow skill server's prompt: every skill server settled.
    settled: (signal) => raceAbort(servers.whenSettled(), signal),
    dispose: () => {
      unsubscribe?.();
      return syncServers([]);
    },
  };
}
