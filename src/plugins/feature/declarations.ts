/**
 * Folder trust's share of plugins: a project's `.geekagent/plugins.json`: each plugin by its source and the
 * hash of its folder's content (a new file, an edit or a removal asks again), and every part it
 * brings as its own line — commands, agents, skills, hooks with their commands, MCP servers with
 * their command lines — so the question shows what trusting the folder would run. A source that
 * is the person's installed copy (`name@marketplace`) is theirs already: listed by its source.
 */

import type { Declaration, TrustContributor } from '../../trust/declarations.js';
import { errorMessage } from '../../util/errors.js';
import { pluginParts } from '../describe.js';
import { folderHash } from '../files.js';
import { readPlugin } from '../manifest.js';
import { projectPluginsFile, projectSource, readProjectPlugins } from '../project.js';

export const pluginTrust: TrustContributor = {
  name: 'plugins',
  kinds: ['plugin', 'pluginPart'],
  read: ({ projectDir }) => pluginDeclarations(projectDir),
  was: (item, before) =>
    item.kind === 'plugin' ? `${item.text} (different files)` : `plugin ${item.name}: ${before}`,
};

export async function pluginDeclarations(projectDir: string): Promise<Declaration[]> {
  const file = projectPluginsFile(projectDir);
  let entries: Awaited<ReturnType<typeof readProjectPlugins>>;
  try {
    entries = await readProjectPlugins(projectDir);
  } catch (error) {
    // A broken file loads nothing either; listed so the person sees it.
    return [
      {
        key: 'plugins-file',
        kind: 'plugin',
        name: 'plugins.json',
        file,
        value: 'broken',
        text: `.geekagent/plugins.json: ${errorMessage(error)}`,
      },
    ];
  }
  const out: Declaration[] = [];
  for (const entry of entries) {
    if (!entry.enabled) continue;
    const where = projectSource(projectDir, entry.source);
    const plugin = (value: string, detail: string): Declaration => ({
      key: `plugin:${entry.name}`,
      kind: 'plugin',
      name: entry.name,
      file,
      value,
      text: `plugin ${entry.name} (${entry.source})${detail}`,
    });
    if (where.kind !== 'folder') {
      out.push(
        plugin(
          `source:${entry.source}`,
          where.kind === 'invalid' ? `: ${where.reason}` : ': your installed copy',
        ),
      );
      continue;
    }
    const read = await readPlugin(where.dir);
    if (!read.ok) {
      out.push(plugin(`unreadable:${entry.source}`, `: ${read.error}`));
      continue;
    }
    let hash: string;
    try {
      hash = folderHash(where.dir);
    } catch (error) {
      out.push(plugin(`unreadable:${entry.source}`, `: ${errorMessage(error)}`));
      continue;
    }
    out.push(plugin(`${entry.source}|${hash}`, ''));
    for (const part of pluginParts(read.plugin))
      out.push({
        key: `plugin-part:${entry.name}:${part.key}`,
        kind: 'pluginPart',
        name: entry.name,
        file: where.dir,
        value: part.text,
        text: `plugin ${entry.name}: ${part.text}`,
      });
  }
  return out;
}
