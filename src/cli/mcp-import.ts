/**
 * `geekagent mcp import [--from <client>] [--scope project|user] [--dry-run] [--force]`: other
 * clients' MCP servers (Claude Code, Claude Desktop, VS Code, Cursor, Gemini CLI, Codex) into our
 * mcp.json. Without `--from` it only lists what it finds (importing everything at once would mix
 * clients that may name different servers alike); with it, it shows each entry it will write,
 * what it cannot convert and which fields it leaves out, then writes under the file's lock.
 * Existing names are kept unless `--force`. Each server goes to the level its source lives at
 * (project files → `.geekagent/mcp.json`, home files → `~/.geekagent/mcp.json`) unless `--scope`.
 * A file is the project's when it is in the project folder or links into it; its servers are never
 * recorded as trusted, and `--scope user` of them warns that they start in every folder.
 */
import path from 'node:path';
import { Command, Option } from 'commander';
import { decideFolderTrust } from '../boot/folder-trust.js';
import { mcpConfigPath } from '../mcp/config.js';
import { addServersToConfig } from '../mcp/config-edit.js';
import {
  type ConvertedServer,
  DIALECTS,
  type DialectContext,
  type DialectName,
  type SourceLevel,
  type SourceRead,
} from '../mcp/dialects/types.js';
import { isInsideFolder, serverDeclaration } from '../trust/declarations.js';
import { TRUST_HINT } from '../trust/describe.js';
import { errorMessage } from '../util/errors.js';
import { ConfigError, readJsonFile } from '../util/json-file.js';
import { visible } from '../util/terminal-text.js';
import type { CliIO } from './types.js';

/** What the dialect commands need from `geekagent mcp` (structurally its own context). */
export interface DialectCommandContext {
  io: CliIO;
  projectDir: () => string;
  homeDir: string;
  userDir: string;
  setExitCode: (code: number) => void;
}

export function scopeOption(description: string): Option {
  return new Option('-s, --scope <scope>', description).choices(['project', 'user']);
}

export async function runReporting(ctx: DialectCommandContext, body: () => Promise<number>): Promise<void> {
  try {
    ctx.setExitCode(await body());
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `geekagent mcp: ${errorMessage(error)}`;
    ctx.io.stderr.write(visible(`${message}\n`));
    ctx.setExitCode(1);
  }
}

interface ImportOptions {
  from?: DialectName;
  scope?: SourceLevel;
  dryRun?: boolean;
  force?: boolean;
}

export function importCommand(ctx: DialectCommandContext): Command {
  return new Command('import')
    .description("import MCP servers from another client's config (without --from: list what is there)")
    .addOption(new Option('--from <client>', 'the client to import from').choices([...DIALECTS]))
    .addOption(
      scopeOption(
        'write every server to this file (default: project sources → project, home sources → user)',
      ),
    )
    .option('--dry-run', 'show what would be written, write nothing')
    .option('--force', 'replace servers that already exist under the same name')
    .action((options: ImportOptions) => runReporting(ctx, () => runImport(ctx, options)));
}

async function runImport(ctx: DialectCommandContext, options: ImportOptions): Promise<number> {
  const out = (text: string) => ctx.io.stdout.write(visible(text));
  const err = (text: string) => ctx.io.stderr.write(visible(text));
  const context: DialectContext = {
    projectDir: ctx.projectDir(),
    homeDir: ctx.homeDir,
    env: ctx.io.env,
    platform: process.platform,
  };
  // Loaded on use: the six readers are not needed to start any other command.
  const { findSources } = await import('../mcp/dialects/index.js');
  const found = await findSources(context, options.from ? [options.from] : undefined);
  for (const problem of found.problems)
    err(`cannot read ${problem.file} (${problem.dialect}): ${problem.error}\n`);
  if (!options.from) return listSources(found.sources, out);
  if (found.sources.length === 0) {
    if (found.problems.length > 0) return 1;
    const files = [...new Set(found.looked.map((item) => item.file))].join(', ');
    err(`no ${options.from} MCP servers found (looked in ${files})\n`);
    return 1;
  }

  out(`From ${options.from}:\n`);
  for (const source of found.sources) out(`  ${where(source)}\n`);
  const plans = await plan(ctx, found.sources, options.scope);
  const unconvertible = found.sources.flatMap((source) =>
    source.unconvertible.map((item) => ({ ...item, file: source.location.file })),
  );
  for (const target of plans) describePlan(target, options.force === true, out);
  if (unconvertible.length > 0) {
    out('Cannot convert:\n');
    for (const item of unconvertible) out(`  × ${item.name} (${item.file}): ${item.reason}\n`);
  }
  warnUserScope(plans, options.force === true, err);
  if (options.dryRun) {
    out('Dry run: nothing written.\n');
    return 0;
  }
  for (const target of plans) await write(ctx, target, options.force === true, out, err);
  return 0;
}

function listSources(sources: readonly SourceRead[], out: (text: string) => void): number {
  if (sources.length === 0) {
    out(`No MCP servers found in the config files of ${DIALECTS.join(', ')}.\n`);
    return 0;
  }
  out("MCP servers in other clients' config files:\n");
  for (const source of sources) {
    const names = [...source.servers, ...source.unconvertible].map((server) => server.name);
    out(`  ${source.dialect.padEnd(15)} ${where(source)}: ${names.length} (${names.join(', ')})\n`);
  }
  const clients = [...new Set(sources.map((source) => source.dialect))];
  out(`Import with: geekagent mcp import --from ${clients.join('|')} [--dry-run]\n`);
  return 0;
}

function where(source: SourceRead): string {
  const part = source.location.part ? ` ${source.location.part}` : '';
  return `${source.location.file}${part} (${source.location.level})`;
}

interface TargetPlan {
  scope: SourceLevel;
  file: string;
  /** `fromProject`: copied from a file in the project folder or linking into it (the repo's words). */
  servers: Array<ConvertedServer & { from: string; file: string; exists: boolean; fromProject: boolean }>;
  /** Same name in a less specific source of the same import: the first one found is used. */
  shadowed: Array<{ name: string; from: string; by: string }>;
}

async function plan(
  ctx: DialectCommandContext,
  sources: readonly SourceRead[],
  scope: SourceLevel | undefined,
): Promise<TargetPlan[]> {
  const dirs = { projectDir: ctx.projectDir(), homeDir: ctx.homeDir, userDir: ctx.userDir };
  const targets = new Map<SourceLevel, TargetPlan>();
  for (const source of sources) {
    const level = scope ?? source.location.level;
    let target = targets.get(level);
    if (!target) {
      target = { scope: level, file: mcpConfigPath(level, dirs), servers: [], shadowed: [] };
      targets.set(level, target);
    }
    const existing = await existingNames(target.file);
    for (const server of source.servers) {
      const earlier = target.servers.find((item) => item.name === server.name);
      if (earlier) target.shadowed.push({ name: server.name, from: where(source), by: earlier.from });
      else
        target.servers.push({
          ...server,
          from: where(source),
          exists: existing.has(server.name),
          fromProject: isProjectFile(source.location.file, dirs.projectDir),
          file: source.location.file,
        });
    }
  }
  return [...targets.values()];
}

function describePlan(target: TargetPlan, force: boolean, out: (text: string) => void): void {
  out(`Into ${target.file}:\n`);
  for (const server of target.servers) {
    if (server.exists && !force) {
      out(`  = ${server.name}: already there, kept (--force replaces it)\n`);
      continue;
    }
    const mark = server.exists ? '~' : '+';
    const note = server.exists ? ' (replaces the existing entry)' : '';
    out(`  ${mark} ${server.name}: ${JSON.stringify(shown(server.entry))}${note}\n`);
    for (const field of server.leftOut) out(`      left out: ${field}\n`);
  }
  for (const item of target.shadowed)
    out(`  - ${item.name} from ${item.from}: skipped, ${item.by} has one\n`);
}

async function write(
  ctx: DialectCommandContext,
  target: TargetPlan,
  force: boolean,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<void> {
  const entries = target.servers.map((server) => [server.name, server.entry] as const);
  if (entries.length === 0) return;
  const projectDir = ctx.projectDir();
  // Decided before the write: a folder trusted as it was stays trusted with the person's own servers.
  const trust =
    target.scope === 'project'
      ? await decideFolderTrust({ projectDir, env: ctx.io.env, homeDir: ctx.homeDir })
      : undefined;
  const result = await addServersToConfig(target.file, entries, { replace: force });
  const count = result.written.length;
  out(
    `Imported ${count} server${count === 1 ? '' : 's'} into ${target.file}${count > 0 ? `: ${result.written.join(', ')}` : ''}\n`,
  );
  if (result.kept.length > 0) out(`Kept the existing ${result.kept.join(', ')} (--force replaces them)\n`);
  const written = target.servers.filter((server) => result.written.includes(server.name));
  if (written.length === 0) return;
  if (trust?.state === 'untrusted') {
    err(`note: this folder is not trusted, so its servers do not start: ${TRUST_HINT}\n`);
    return;
  }
  // Servers from your own (home) files stay trusted like `mcp add`; ones copied from files in the
  // project were written by the repo, so the folder-trust question shows them at the next start.
  const own = written.filter((server) => !server.fromProject);
  const fromRepo = written.filter((server) => server.fromProject).map((server) => server.name);
  if (trust?.state === 'trusted') {
    if (own.length > 0)
      await trust.remember?.(own.map((server) => serverDeclaration(target.file, server.name, server.entry)));
    if (fromRepo.length > 0)
      out(
        `${fromRepo.join(', ')} came from files in this folder: approve them at the next start (geekagent trust)\n`,
      );
  }
}

/**
 * Whether a source file is the project's (written by whoever wrote the repo): where it is, or,
 * through symlinks, where it points — `app/.mcp.json -> ../tools/servers.json` is the repo's file
 * although its target is outside the project folder, as is a link elsewhere to a file inside it.
 */
function isProjectFile(file: string, projectDir: string): boolean {
  const relative = path.relative(path.resolve(projectDir), path.resolve(file));
  const placedInside =
    relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
  return placedInside || isInsideFolder(file, projectDir);
}

/**
 * A project file's servers written to the user file start in every folder, with no trust question:
 * said before writing (and in a dry run), naming each file and its servers.
 */
function warnUserScope(plans: readonly TargetPlan[], force: boolean, err: (text: string) => void): void {
  for (const target of plans) {
    if (target.scope !== 'user') continue;
    const byFile = new Map<string, string[]>();
    for (const server of target.servers) {
      if (!server.fromProject || (server.exists && !force)) continue;
      byFile.set(server.file, [...(byFile.get(server.file) ?? []), server.name]);
    }
    for (const [file, names] of byFile) {
      const [they, run] = names.length > 1 ? ['they', 'run'] : ['it', 'runs'];
      err(
        `warning: ${names.join(', ')} from ${file}, a file of this project folder (written by whoever ` +
          `wrote the repository): in ${target.file} ${they} ${run} in every folder you start geekagent in, ` +
          `with no trust question. Keep ${names.length > 1 ? 'them' : 'it'} to this folder with --scope project; ` +
          `remove with: geekagent mcp remove <name> --scope user\n`,
      );
    }
  }
}

async function existingNames(file: string): Promise<Set<string>> {
  const read = await readJsonFile(file);
  if (read.kind === 'missing') return new Set();
  const servers = (read.value as { mcpServers?: unknown } | null)?.mcpServers;
  return new Set(typeof servers === 'object' && servers !== null ? Object.keys(servers) : []);
}

/** Literal env and header values may be secrets: shown hidden (they are written as they are). */
function shown(entry: Record<string, unknown>): Record<string, unknown> {
  const hide = (record: unknown) =>
    Object.fromEntries(
      Object.entries(record as Record<string, string>).map(([key, value]) => [
        key,
        /^(\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}|Bearer \$\{[A-Za-z_][A-Za-z0-9_]*\})$/.test(value)
          ? value
          : '<hidden>',
      ]),
    );
  return {
    ...entry,
    ...(entry.env ? { env: hide(entry.env) } : {}),
    ...(entry.headers ? { headers: hide(entry.headers) } : {}),
  };
}
