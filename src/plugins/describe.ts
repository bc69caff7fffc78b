/**
 * What a plugin brings, as lines for a person: its commands, agents, skills, hooks with their
 * commands, MCP servers with their command lines (or URLs), context files. Every piece comes from
 * the plugin (untrusted): each line goes through `visibleLine`.
 */
import path from 'node:path';
import { visibleLine } from '../util/terminal-text.js';
import type { PluginParts } from './manifest.js';

/** One part: its kind and its text (raw; `pluginPartLines` makes it printable). */
export interface PluginPart {
  kind: 'command' | 'agent' | 'skill' | 'hook' | 'server' | 'context' | 'exclude' | 'problem';
  /** A stable identity inside the plugin (`command:review`). */
  key: string;
  text: string;
}

export function pluginParts(plugin: PluginParts): PluginPart[] {
  const relative = (file: string) => path.relative(plugin.root, file).split(path.sep).join('/');
  return [
    ...plugin.commands.map((command) => ({
      kind: 'command' as const,
      key: `command:${command.name}`,
      text: `command /${command.name} (${relative(command.file)})`,
    })),
    ...plugin.agents.map((file) => ({
      kind: 'agent' as const,
      key: `agent:${relative(file)}`,
      text: `agent ${path.basename(file, '.md')} (${relative(file)})`,
    })),
    ...plugin.skills.map((dir) => ({
      kind: 'skill' as const,
      key: `skill:${relative(dir)}`,
      text: `skill ${path.basename(dir)} (${relative(dir)})`,
    })),
    ...plugin.hooks.map((hook, index) => ({
      kind: 'hook' as const,
      key: `hook:${hook.event}:${index}`,
      text: `hook ${hook.event} ${hook.matcher === '' ? '*' : hook.matcher} runs: ${hook.command}`,
    })),
    ...Object.entries(plugin.servers).map(([name, raw]) => ({
      kind: 'server' as const,
      key: `server:${name}`,
      text: `MCP server ${name}: ${serverLine(raw)}`,
    })),
    ...plugin.contextFiles.map((file) => ({
      kind: 'context' as const,
      key: `context:${relative(file)}`,
      text: `context file ${relative(file)} (instructions in every request)`,
    })),
    ...(plugin.excludeTools.length > 0
      ? [
          {
            kind: 'exclude' as const,
            key: 'exclude',
            text: `excludeTools ${plugin.excludeTools.join(', ')} (hidden from the model)`,
          },
        ]
      : []),
    ...plugin.problems.map((problem, index) => ({
      kind: 'problem' as const,
      key: `problem:${index}`,
      text: `problem: ${problem}`,
    })),
  ];
}

/** A server entry's command line (`node server.js --flag`) or URL. */
export function serverLine(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null) return '(not an object)';
  const entry = raw as Record<string, unknown>;
  if (typeof entry.url === 'string') return entry.url;
  if (typeof entry.httpUrl === 'string') return entry.httpUrl;
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  return [String(entry.command ?? '(no command)'), ...args].join(' ');
}

/** The heading and part lines shown before an install and by `plugin list`. */
export function pluginSummaryLines(plugin: PluginParts, indent = '  '): string[] {
  const format = plugin.format === 'claude' ? 'Claude Code plugin' : 'Gemini CLI extension';
  const head = `${plugin.name}${plugin.version ? ` ${plugin.version}` : ''} (${format})${
    plugin.description ? `: ${plugin.description}` : ''
  }`;
  const parts = pluginParts(plugin);
  return [
    visibleLine(head),
    ...(parts.length === 0 ? [`${indent}(nothing: no commands, agents, skills, hooks or servers)`] : []),
    ...parts.map((part) => `${indent}${visibleLine(part.text)}`),
  ];
}
