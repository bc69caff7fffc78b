/**
 * `geekagent plugin …`: install (a folder, a git URL or `<plugin>@<marketplace>`; shows what the
 * plugin brings and asks, `--yes` for scripts; `--scope project` records it in the project's
 * `.geekagent/plugins.json`), list, remove, enable, disable, and `plugin marketplace add|list|remove`.
 * Everything printed from a plugin or marketplace goes through `visibleLine`.
 */

import path from 'node:path';
import { createInterface } from 'node:readline';
import { Command, Option } from 'commander';
import { userStateDir } from '../config/paths.js';
import { pluginSummaryLines } from '../plugins/describe.js';
import {
  commitInstall,
  copyIntact,
  type PreparedPlugin,
  preparePlugin,
  setEnabled,
  uninstall,
} from '../plugins/install.js';
import { loadPlugins } from '../plugins/load.js';
import { addMarketplace, readMarketplace, removeMarketplace } from '../plugins/marketplace.js';
import { type ProjectPluginEntry, readProjectPlugins, writeProjectPlugins } from '../plugins/project.js';
import { readInstalled, readMarketplaces } from '../plugins/store.js';
import { errorMessage } from '../util/errors.js';
import { visibleLine } from '../util/terminal-text.js';
import type { CliIO } from './types.js';

type Scope = 'user' | 'project';

export function pluginCommand(
  io: CliIO,
  setExitCode: (code: number) => void,
  cwd: () => string | undefined,
): Command {
  const userDir = () => userStateDir(io.env);
  const projectDir = () => path.resolve(cwd() ?? process.cwd());
  const out = (line: string) => io.stdout.write(`${line}\n`);
  const fail = (line: string) => {
    io.stderr.write(`geekagent plugin: ${visibleLine(line)}\n`);
    setExitCode(1);
  };
  const guarded =
    <A extends unknown[]>(action: (...args: A) => Promise<void>) =>
    async (...args: A) => {
      try {
        await action(...args);
      } catch (error) {
        fail(errorMessage(error));
      }
    };
  const scopeOption = () =>
    new Option('--scope <scope>', 'user (every project) or project (.geekagent/plugins.json)')
      .choices(['user', 'project'])
      .default('user');

  /** Changes (or, undefined back, drops) the project's entry `name`; false when it has none. */
  const changeProjectEntry = async (
    name: string,
    change: (entry: ProjectPluginEntry) => ProjectPluginEntry | undefined,
  ): Promise<boolean> => {
    const entries = await readProjectPlugins(projectDir());
    if (!entries.some((entry) => entry.name === name)) return false;
    const changed = entries.flatMap((entry) => (entry.name === name ? (change(entry) ?? []) : [entry]));
    await writeProjectPlugins(projectDir(), changed);
    return true;
  };

  const plugin = new Command('plugin').description(
    'Claude Code plugins and Gemini CLI extensions: commands, agents, skills, hooks and MCP servers in one folder',
  );

  plugin
    .command('install')
    .description(
      'install a plugin from a folder, a git URL or <plugin>@<marketplace> (shows what it brings and asks)',
    )
    .argument('<source>', 'a folder, a git URL, or <plugin>@<marketplace>')
    .option('-y, --yes', 'install without asking (for scripts)')
    .addOption(scopeOption())
    .action(
      guarded(async (spec: string, options: { yes?: boolean; scope: Scope }) => {
        const prepared = await preparePlugin(userDir(), spec);
        try {
          await install(prepared, spec, options);
        } finally {
          await prepared.cleanup();
        }
      }),
    );

  const install = async (
    prepared: PreparedPlugin,
    spec: string,
    options: { yes?: boolean; scope: Scope },
  ) => {
    const name = prepared.parts.name;
    let projectSource: string | undefined;
    if (options.scope === 'project') {
      const relative = path.relative(projectDir(), prepared.dir);
      if (prepared.source === prepared.dir) {
        if (relative.startsWith('..') || path.isAbsolute(relative))
          return fail(
            `a project plugin is a folder inside the project or <plugin>@<marketplace>: ${prepared.dir} is outside ${projectDir()}`,
          );
        projectSource = `./${relative.split(path.sep).join('/')}`;
      } else if (/^[^@/\\\s]+@[^@/\\\s]+$/.test(spec)) projectSource = spec;
      else
        return fail(
          'a project plugin is a folder inside the project or <plugin>@<marketplace>, not a git URL',
        );
    }
    const unchanged =
      options.scope === 'user' &&
      prepared.previous?.hash === prepared.hash &&
      !prepared.previous.projectOnly &&
      copyIntact(prepared.previous);
    if (unchanged) {
      out(`${visibleLine(name)} is installed and unchanged.`);
      return;
    }
    const changed = prepared.previous !== undefined && prepared.previous.hash !== prepared.hash;
    out(
      changed
        ? `Plugin ${visibleLine(name)} changed since you installed it; it now brings:`
        : `Plugin ${pluginSummaryLines(prepared.parts)[0]}`,
    );
    for (const line of pluginSummaryLines(prepared.parts).slice(changed ? 0 : 1))
      out(changed ? `  ${line}` : line);
    if (
      !options.yes &&
      !(await confirm(io, `Install ${visibleLine(name)} (${options.scope} scope)? [y/N] `))
    ) {
      io.stderr.write('Not installed.\n');
      setExitCode(1);
      return;
    }
    if (options.scope === 'project' && projectSource) {
      if (!projectSource.startsWith('./')) await commitInstall(userDir(), prepared, { projectOnly: true });
      const entries = (await readProjectPlugins(projectDir())).filter((entry) => entry.name !== name);
      entries.push({ name, source: projectSource, enabled: true });
      await writeProjectPlugins(projectDir(), entries);
      out(
        `Added ${visibleLine(name)} to .geekagent/plugins.json; it loads once you trust the folder (the next start asks, or geekagent trust).`,
      );
      return;
    }
    const record = await commitInstall(userDir(), prepared);
    out(`Installed ${visibleLine(name)} (${record.hash.slice(0, 19)}…) in ${visibleLine(record.dir)}`);
  };

  plugin
    .command('list')
    .description('list installed plugins (yours and this project’s) with what each brings')
    .action(
      guarded(async () => {
        const installed = await readInstalled(userDir());
        const loaded = await loadPlugins({
          userDir: userDir(),
          projectDir: projectDir(),
          projectTrusted: true,
        });
        const project = await readProjectPlugins(projectDir()).catch(() => []);
        if (Object.keys(installed).length === 0 && project.length === 0) {
          out(
            'No plugins installed. Install one with geekagent plugin install <folder|git-url|plugin@marketplace>.',
          );
          return;
        }
        for (const active of loaded.active) {
          const [head, ...parts] = pluginSummaryLines(active.parts, '    ');
          out(`${active.scope === 'user' ? 'user' : 'project'}  ${head}  [enabled]`);
          for (const line of parts) out(line);
        }
        for (const left of loaded.leftOut)
          out(
            `${left.scope}  ${visibleLine(left.name)}  [${left.reason === 'disabled' || left.reason.startsWith('disabled') ? 'disabled' : `not loaded: ${visibleLine(left.reason)}`}]`,
          );
      }),
    );

  plugin
    .command('remove')
    .alias('uninstall')
    .description('remove an installed plugin (and its copy)')
    .argument('<name>')
    .addOption(scopeOption())
    .action(
      guarded(async (name: string, options: { scope: Scope }) => {
        if (options.scope === 'project') {
          if (!(await changeProjectEntry(name, () => undefined))) return fail(notInProject(name));
          out(`Removed ${visibleLine(name)} from .geekagent/plugins.json`);
          return;
        }
        if (!(await uninstall(userDir(), name))) return fail(notInstalled(name));
        out(`Removed ${visibleLine(name)}`);
      }),
    );

  for (const enabled of [true, false]) {
    plugin
      .command(enabled ? 'enable' : 'disable')
      .description(
        enabled ? 'turn an installed plugin back on' : 'turn an installed plugin off (it stays installed)',
      )
      .argument('<name>')
      .addOption(scopeOption())
      .action(
        guarded(async (name: string, options: { scope: Scope }) => {
          const found =
            options.scope === 'project'
              ? await changeProjectEntry(name, (entry) => ({ ...entry, enabled }))
              : await setEnabled(userDir(), name, enabled);
          if (!found) return fail(options.scope === 'project' ? notInProject(name) : notInstalled(name));
          out(`${enabled ? 'Enabled' : 'Disabled'} ${visibleLine(name)}`);
        }),
      );
  }

  const marketplace = plugin.command('marketplace').description('plugin marketplaces (catalogs of plugins)');
  marketplace
    .command('add')
    .description(
      'add a marketplace: a folder, a git URL or npm:<package> with .claude-plugin/marketplace.json',
    )
    .argument('<source>')
    .action(
      guarded(async (spec: string) => {
        const added = await addMarketplace(userDir(), spec);
        out(`Added marketplace ${visibleLine(added.name)} with ${added.plugins.length} plugin(s):`);
        for (const entry of added.plugins) out(catalogLine(entry, added.name));
      }),
    );
  marketplace
    .command('list')
    .description('list added marketplaces and their plugins')
    .action(
      guarded(async () => {
        const records = await readMarketplaces(userDir());
        if (Object.keys(records).length === 0) {
          out('No marketplaces. Add one with geekagent plugin marketplace add <folder|git-url|npm:package>.');
          return;
        }
        for (const [name, record] of Object.entries(records)) {
          out(`${visibleLine(name)}  (${visibleLine(record.source)})`);
          try {
            for (const entry of readMarketplace(record.dir).plugins) out(catalogLine(entry, name));
          } catch (error) {
            out(`  error: ${visibleLine(errorMessage(error))}`);
          }
        }
      }),
    );
  marketplace
    .command('remove')
    .description('remove a marketplace (installed plugins stay)')
    .argument('<name>')
    .action(
      guarded(async (name: string) => {
        if (!(await removeMarketplace(userDir(), name))) return fail(`no marketplace ${name}`);
        out(`Removed marketplace ${visibleLine(name)}`);
      }),
    );
  return plugin;
}

/** One answer line from stdin (a terminal or a pipe); no line (end of input) is a no. */
async function confirm(io: CliIO, question: string): Promise<boolean> {
  io.stderr.write(question);
  const lines = createInterface({ input: io.stdin, terminal: false });
  try {
    for await (const line of lines) return /^\s*y(es)?\s*$/i.test(line);
    return false;
  } finally {
    lines.close();
  }
}

const notInProject = (name: string) => `no plugin ${name} in .geekagent/plugins.json`;
const notInstalled = (name: string) => `no installed plugin ${name} (see geekagent plugin list)`;

/** A catalog's plugin as `marketplace add` and `list` show it: `  name@marketplace — description`. */
function catalogLine(entry: { name: string; description?: string }, marketplace: string): string {
  const about = entry.description ? ` — ${visibleLine(entry.description)}` : '';
  return `  ${visibleLine(entry.name)}@${visibleLine(marketplace)}${about}`;
}
