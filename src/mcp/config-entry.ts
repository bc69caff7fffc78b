/**
 * One raw server entry of an mcp.json (or a skill's, a plugin's, `--mcp-config`'s) into its
 * definition: validated by config-schema.ts, `${VAR}` expanded in every field (an unset variable
 * makes the entry invalid, naming where), a relative `cwd` resolved from the file's folder.
 */
import path from 'node:path';
import { jsonPath } from '../util/json-file.js';
import { checkServerEntry, isHttpUrl, type RemoteEntry, type StdioEntry } from './config-schema.js';
import { expandVariables } from './expand-vars.js';
import { expandOAuth } from './oauth-settings.js';
import { sandboxOf } from './sandbox-config.js';
import {
  type ConfigSource,
  DEFAULT_MAX_RESULT_TOKENS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  type DefinitionBase,
  type EnvValue,
  type RemoteDefinition,
  type ServerConfigEntry,
  type StdioDefinition,
} from './server-definition.js';

export interface EntryContext {
  source: ConfigSource;
  file: string;
  /** What a relative `cwd` is relative to: the project for project files, home for user files. */
  baseDir: string;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  /** The user confines every project stdio server: `"sandbox": false` cannot undo that. */
  confineByDefault?: boolean;
}

/** Carries an expansion problem out of the nested field walk; never escapes this module. */
class EntryProblem extends Error {}

export function toConfigEntry(name: string, raw: unknown, context: EntryContext): ServerConfigEntry {
  const invalid = (error: string): ServerConfigEntry => ({
    name,
    kind: 'invalid',
    error,
    source: context.source,
    file: context.file,
  });
  const check = checkServerEntry(context.file, name, raw);
  if (!check.ok) return invalid(check.error);
  try {
    const definition =
      check.kind === 'remote'
        ? remoteDefinition(name, check.entry, context)
        : stdioDefinition(name, check.entry, context);
    return { name, kind: 'ok', definition };
  } catch (error) {
    if (error instanceof EntryProblem) return invalid(error.message);
    throw error;
  }
}

type Expand = (value: string, ...where: PropertyKey[]) => string;

function expander(
  name: string,
  context: EntryContext,
): {
  expand: Expand;
  fail: (message: string, ...where: PropertyKey[]) => never;
  /** The definition with what its expansions took from the environment (once all are done). */
  withTaken: <T extends DefinitionBase>(definition: T) => T;
} {
  const taken: EnvValue[] = [];
  const take = (variable: string, value: string) => {
    if (!taken.some((seen) => seen.variable === variable && seen.value === value))
      taken.push({ variable, value });
  };
  const withTaken = <T extends DefinitionBase>(definition: T): T =>
    taken.length === 0 ? definition : { ...definition, fromEnv: taken };
  const fail = (message: string, ...where: PropertyKey[]): never => {
    throw new EntryProblem(`${context.file}: at ${jsonPath(['mcpServers', name, ...where])}: ${message}`);
  };
  const expand: Expand = (value, ...where) => {
    const result = expandVariables(value, context.env, take);
    if (result.ok) return result.value;
    const variable = result.variable;
    return fail(
      `environment variable ${variable} is not set (use \${${variable}:-default} to give a default)`,
      ...where,
    );
  };
  return { expand, fail, withTaken };
}

function expandRecord(
  record: Record<string, string> | undefined,
  key: string,
  expand: Expand,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record ?? {}).map(([name, value]) => [name, expand(value, key, name)]),
  );
}

function baseDefinition(
  name: string,
  entry: StdioEntry | RemoteEntry,
  context: EntryContext,
): DefinitionBase {
  return {
    name,
    source: context.source,
    file: context.file,
    timeoutMs: entry.timeout ?? DEFAULT_TIMEOUT_MS,
    startupTimeoutMs: entry.startupTimeout ?? DEFAULT_STARTUP_TIMEOUT_MS,
    disabled: entry.disabled ?? false,
    ...(entry.roots === false ? { roots: false as const } : {}),
    startup: entry.startup ?? 'lazy',
    ...(entry.includeTools ? { includeTools: [...entry.includeTools] } : {}),
    ...(entry.excludeTools ? { excludeTools: [...entry.excludeTools] } : {}),
    maxResultTokens: entry.maxResultTokens ?? DEFAULT_MAX_RESULT_TOKENS,
  };
}

function stdioDefinition(name: string, entry: StdioEntry, context: EntryContext): StdioDefinition {
  const { expand, fail, withTaken } = expander(name, context);
  const command = expand(entry.command, 'command');
  if (command.trim() === '') fail('command is empty once variables are expanded', 'command');
  return withTaken({
    ...baseDefinition(name, entry, context),
    transport: 'stdio',
    command,
    args: (entry.args ?? []).map((arg, index) => expand(arg, 'args', index)),
    written: { command: entry.command, args: [...(entry.args ?? [])] },
    env: expandRecord(entry.env, 'env', expand),
    // Without a cwd a server runs in the project, user-file servers included: it works on this project.
    cwd:
      entry.cwd === undefined ? context.projectDir : path.resolve(context.baseDir, expand(entry.cwd, 'cwd')),
    ...sandboxOf(entry.sandbox, {
      baseDir: context.baseDir,
      env: context.env,
      confineByDefault: context.confineByDefault === true,
      expand: (value, ...where) => expand(value, 'sandbox', ...where),
    }),
  });
}

function remoteDefinition(name: string, entry: RemoteEntry, context: EntryContext): RemoteDefinition {
  const { expand, fail, withTaken } = expander(name, context);
  const url = expand(entry.url, 'url');
  if (!isHttpUrl(url)) fail(`expected an http:// or https:// URL once variables are expanded`, 'url');
  const oauth = entry.oauth;
  return withTaken({
    ...baseDefinition(name, entry, context),
    transport: entry.type,
    url,
    written: { url: entry.url },
    headers: expandRecord(entry.headers, 'headers', expand),
    // Secrets belong in the environment, not in a file that may be committed: expand them all.
    ...(oauth ? { oauth: expandOAuth(oauth, expand) } : {}),
  });
}
