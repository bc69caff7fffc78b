/**
 * Codex CLI (`$CODEX_HOME/config.toml`, default `~/.codex/config.toml`, and a project's
 * `.codex/config.toml`): `[mcp_servers.<name>]` tables. Codex values are literal (no variables);
 * `env_vars`, `bearer_token_env_var` and `env_http_headers` name variables, written as `${VAR}`.
 */
import path from 'node:path';
import { hasVariableReference } from '../expand-vars.js';
import { CannotConvert, type EntryReader, nonEmpty, nonEmptyRecord, type Translate } from './convert.js';
import { readServersMap } from './servers-map.js';
import { parseToml } from './toml.js';
import type { Dialect } from './types.js';

/**
 * A Codex value is taken literally, while our config expands `${VAR}` in it: such a value would
 * change meaning (or fail to load when VAR is unset), so the entry is reported, not converted.
 */
const literal: Translate = (value, field) => {
  if (hasVariableReference(value))
    throw new CannotConvert(
      `${field}: ${JSON.stringify(value)} is literal text to Codex, but GeekAgent would expand the \${VAR} in it from the environment (add this server by hand)`,
    );
  return value;
};

function seconds(reader: EntryReader, key: string): number | undefined {
  const value = reader.number(key);
  return value === undefined ? undefined : Math.max(1, Math.round(value * 1000));
}

function convertCodex(reader: EntryReader): Record<string, unknown> {
  const enabled = reader.boolean('enabled');
  const common = {
    startupTimeout: seconds(reader, 'startup_timeout_sec') ?? reader.number('startup_timeout_ms'),
    timeout: seconds(reader, 'tool_timeout_sec'),
    disabled: enabled === false ? true : undefined,
    includeTools: nonEmpty(reader.strings('enabled_tools')),
    excludeTools: nonEmpty(reader.strings('disabled_tools')),
  };
  const command = reader.string('command');
  if (command !== undefined) {
    const env = { ...variables(reader.strings('env_vars')), ...reader.record('env') };
    return {
      command,
      args: nonEmpty(reader.strings('args')),
      env: nonEmptyRecord(env),
      cwd: reader.string('cwd'),
      ...common,
    };
  }
  const url = reader.string('url');
  if (url === undefined) throw new CannotConvert('neither "command" nor "url" is given');
  const token = reader.string('bearer_token_env_var');
  const fromEnv = reader.record('env_http_headers');
  const headers: Record<string, string> = {
    ...reader.record('http_headers'),
    ...Object.fromEntries(Object.entries(fromEnv ?? {}).map(([name, variable]) => [name, `\${${variable}}`])),
    ...(token === undefined ? {} : { Authorization: `Bearer \${${token}}` }),
  };
  return { type: 'http', url, headers: nonEmptyRecord(headers), ...common };
}

/** `env_vars = ["X"]`: Codex passes X through from its environment; we say `X = "${X}"`. */
function variables(names: string[] | undefined): Record<string, string> {
  return Object.fromEntries((names ?? []).map((name) => [name, `\${${name}}`]));
}

export const codex: Dialect = {
  name: 'codex',
  locations: (context) => {
    const home = context.env.CODEX_HOME;
    const dir = home && path.isAbsolute(home) ? home : path.join(context.homeDir, '.codex');
    return [
      { file: path.join(context.projectDir, '.codex', 'config.toml'), level: 'project' },
      { file: path.join(dir, 'config.toml'), level: 'user' },
    ];
  },
  read: (text, location) =>
    readServersMap(
      'codex',
      { ...location, part: 'mcp_servers' },
      parseToml(text).mcp_servers,
      literal,
      convertCodex,
    ),
};
