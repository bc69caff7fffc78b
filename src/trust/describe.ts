/**
 * The words of folder trust: the start-up question, the one stderr line of print mode and the
 * `mcp` commands, the `/mcp` and panel notes, and `geekagent trust`'s list. Every declared value
 * is untrusted text, shown through `visibleLine` so an escape sequence appears as `^[`.
 */
import { visibleLine } from '../util/terminal-text.js';
import type { FolderTrust } from './decide.js';
import type { Declaration, DeclarationKind, FolderDeclarations } from './declarations.js';

export const TRUST_HINT = 'run "geekagent trust" or pass --trust';

type Untrusted = Extract<FolderTrust, { state: 'untrusted' }>;

/** Whether the folder's own servers are off this run because it is not trusted. */
export function projectServersOff(trust: FolderTrust): boolean {
  return trust.state === 'untrusted' && trust.declarations.items.some((item) => item.kind === 'server');
}

/** One line for stderr (print mode, `mcp` commands); undefined when nothing is ignored. */
export function untrustedNotice(trust: FolderTrust): string | undefined {
  if (trust.state !== 'untrusted' || trust.declarations.items.length === 0) return undefined;
  const why = trust.changes
    ? `folder changed since you trusted it (${changeCounts(trust)})`
    : 'folder not trusted';
  return `geekagent: ${why}: ignoring ${ignoredSummary(trust.declarations)} — ${TRUST_HINT}`;
}

/** `.geekagent/mcp.json (2 servers), 1 allow rule, root outside the folder, .env (1 setting)`. */
export function ignoredSummary(declarations: FolderDeclarations): string {
  const count = (kind: DeclarationKind) => declarations.items.filter((item) => item.kind === kind).length;
  const parts: string[] = [];
  const servers = count('server');
  if (servers > 0) parts.push(`.geekagent/mcp.json (${plural(servers, 'server')})`);
  const rules = count('allow') + count('annotationAllow');
  if (rules > 0) parts.push(plural(rules, 'allow rule'));
  const hosts = count('fetchHost');
  if (hosts > 0) parts.push(plural(hosts, 'fetch host'));
  if (count('root') > 0) parts.push('root outside the folder');
  const agents = count('agent');
  if (agents > 0) parts.push(`.geekagent/agents (${plural(agents, 'agent')})`);
  const commands = count('command');
  if (commands > 0) parts.push(plural(commands, 'custom command'));
  const env = count('env');
  if (env > 0) parts.push(`.env (${plural(env, 'setting')})`);
  const skills = count('skill');
  if (skills > 0) parts.push(plural(skills, 'project skill'));
  if (count('memory') > 0) parts.push('.geekagent/memory.json (project memory)');
  const hooks = count('hook');
  if (hooks > 0) parts.push(plural(hooks, 'hook'));
  const plugins = count('plugin');
  if (plugins > 0) parts.push(`.geekagent/plugins.json (${plural(plugins, 'plugin')})`);
  return parts.join(', ');
}

/** The start-up question's text (the keys to press are the asker's). */
export function trustQuestionLines(trust: Untrusted): string[] {
  const { declarations, changes } = trust;
  const lines: string[] = [];
  if (changes) {
    lines.push(`This folder changed since you trusted it: ${visibleLine(declarations.folder)}`);
    for (const change of changes) {
      lines.push(`  ${change.change === 'new' ? 'new:' : 'changed:'} ${shown(change.item)}`);
      if (change.was) lines.push(`      was: ${visibleLine(change.was)}`);
    }
    const unchanged = declarations.items.length - changes.length;
    if (unchanged > 0)
      lines.push(`  (and ${plural(unchanged, 'declaration')} you trusted before, unchanged)`);
  } else {
    lines.push(`GeekAgent has not run in this folder before: ${visibleLine(declarations.folder)}`);
    lines.push('It declares (nothing of it is used until you trust the folder):');
    for (const item of declarations.items) lines.push(`  ${shown(item)}`);
  }
  return lines;
}

/** `geekagent trust`'s list of what it records. */
export function trustListLines(declarations: FolderDeclarations): string[] {
  if (declarations.items.length === 0)
    return ['  (it declares nothing: no project servers, allow rules, fetch hosts, root or .env)'];
  return declarations.items.map((item) => `  ${shown(item)}`);
}

/** The `/mcp` line when project servers are off; undefined otherwise. */
export function mcpTrustNote(trust: FolderTrust): string | undefined {
  return projectServersOff(trust)
    ? 'project servers not started: folder not trusted (run geekagent trust)'
    : undefined;
}

/** The panel's MCP value with a note when the project's servers are off. */
export function panelMcpWithTrust(line: string, trust: FolderTrust): string {
  if (!projectServersOff(trust)) return line;
  return line === 'none' ? 'project off (not trusted)' : `${line}, project off (not trusted)`;
}

function shown(item: Declaration): string {
  return visibleLine(item.text);
}

function changeCounts(trust: Untrusted): string {
  const changes = trust.changes ?? [];
  const added = changes.filter((change) => change.change === 'new').length;
  const changed = changes.length - added;
  return [added > 0 ? `${added} new` : '', changed > 0 ? `${changed} changed` : '']
    .filter(Boolean)
    .join(', ');
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
