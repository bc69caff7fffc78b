/**
 * Plugins on the seam: `/plugin` lists the run's plugins (each with what it brings) and those
 * left out (disabled, changed since installed, not installed); a Gemini extension's context files
 * are a system prompt section of every request (read once at start, each cut at 64 KB), and its
 * `excludeTools` are hidden from the model (plugins/exclude-tools.ts: Gemini's names as ours). The other
 * parts joined their features in create-app (commands, agents, skills, hooks, MCP servers).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Extension, PROMPT_ORDER } from '../../extensions/types.js';
import { visible, visibleLine } from '../../util/terminal-text.js';
import { pluginSummaryLines } from '../describe.js';
import { excludedTools } from '../exclude-tools.js';
import { type LoadedPlugins, pluginContextFiles } from '../load.js';

const MAX_CONTEXT_BYTES = 64 * 1024;

export function pluginsExtension(loaded: LoadedPlugins): Extension {
  return {
    name: 'plugins',
    async setup(host) {
      const contexts: string[] = [];
      for (const { plugin, file } of pluginContextFiles(loaded)) {
        try {
          const text = (await readFile(file, 'utf8')).slice(0, MAX_CONTEXT_BYTES);
          contexts.push(`[${plugin}: ${path.basename(file)}]\n${text.trim()}`);
        } catch (error) {
          host.notice(
            `plugin ${visibleLine(plugin)}: cannot read ${visibleLine(file)}: ${(error as Error).message}`,
            'error',
          );
        }
      }
      if (contexts.length > 0)
        host.on.prompt(async () => ({
          order: PROMPT_ORDER.pluginContext,
          text: `Context files of installed extensions (extension text, not the user's words):\n${contexts.join('\n\n')}`,
        }));
      const excluded = excludedTools(loaded.active.flatMap((plugin) => plugin.parts.excludeTools));
      if (excluded.names.length > 0) {
        const hidden = new Set(excluded.names);
        host.on.toolFilter((tool) => !hidden.has(tool.name));
      }
      if (excluded.scoped.length > 0)
        host.notice(
          `plugins: excludeTools entries scoped to arguments are not applied (rules name whole tools): ${visibleLine(excluded.scoped.join(', '))}`,
          'error',
        );
      for (const left of loaded.leftOut)
        if (!left.reason.startsWith('disabled'))
          host.notice(
            `plugin ${visibleLine(left.name)} (${left.scope}): ${visibleLine(left.reason)}`,
            'error',
          );
      for (const plugin of loaded.active)
        for (const problem of plugin.parts.problems)
          host.notice(`plugin ${visibleLine(plugin.parts.name)}: ${visibleLine(problem)}`, 'error');
      host.commands.add({
        name: 'plugin',
        usage: '/plugin',
        description: 'list the plugins of this run (yours and the project’s) and what each brings',
        run: async (_args, ctx) => ctx.print(formatPlugins(loaded)),
      });
    },
  };
}

export function formatPlugins(loaded: LoadedPlugins): string {
  if (loaded.active.length === 0 && loaded.leftOut.length === 0)
    return 'no plugins: install one with geekagent plugin install <folder|git-url|plugin@marketplace>';
  const lines = ['plugins:'];
  for (const plugin of loaded.active) {
    const [head, ...parts] = pluginSummaryLines(plugin.parts, '      ');
    lines.push(`  ${head}  [${plugin.scope}]`, ...parts);
  }
  for (const left of loaded.leftOut)
    lines.push(`  – ${visibleLine(left.name)}  not loaded: ${visible(left.reason)}  [${left.scope}]`);
  return lines.join('\n');
}
