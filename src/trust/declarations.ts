/**
 * What a project folder declares that only takes effect once the person trusts the folder: its
 * MCP servers (`.geekagent/mcp.json`), its `allow` rules (tool and annotation rules), `fetch.allowHosts` and a `root` outside
 * the folder (`.geekagent/GeekAgent.json`), its custom agents (`.geekagent/agents/*.md`: they
 * choose tools and instructions), its custom commands (command-declarations.ts), its project memory (`.geekagent/memory.json`: recalled into the
 * system prompt), the model settings of its `.env`, and its project skills (skill-declarations.ts:
 * each folder, the tools it pre-approves, its executables and servers). Read raw (nothing expanded,
 * nothing run), each as one item with a stable identity and a canonical value to compare. Its
 * lifecycle hooks (`"hooks"` of `.geekagent/GeekAgent.json`) run commands: each is one item too.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { DOTENV_FILE, readModelDotEnv } from '../config/dotenv.js';
import { readHookSettings } from '../config/hook-settings.js';
import { readProjectServers } from '../mcp/config.js';
import { permissionFileSchema } from '../permissions/config.js';
import { BUILTIN_POLICIES } from '../permissions/defaults.js';
import { readJsonFile } from '../util/json-file.js';
import { commandDeclarations } from './command-declarations.js';
import { pluginDeclarations } from './plugin-declarations.js';
import { serverSandboxDeclaration } from './sandbox-declarations.js';
import { skillDeclarations } from './skill-declarations.js';

export type DeclarationKind =
  | 'server'
  | 'serverSandbox'
  | 'allow'
  | 'annotationAllow'
  | 'fetchHost'
  | 'root'
  | 'env'
  | 'skill'
  | 'skillAllow'
  | 'skillTool'
  | 'skillServer'
  | 'agent'
  | 'command'
  | 'memory'
  | 'hook'
  | 'plugin'
  | 'pluginPart';

export interface Declaration {
  /**
   * Identity in the trust record: `server:<name>`, `allow:<pattern>`,
   * `server-sandbox:<name>` (the folders and hosts its `"sandbox"` opens),
   * `annotation:<hint>:<pattern>` (an annotation rule that allows), `fetch:<host>` (a
   * `fetch.allowHosts` entry), `root`, `env:<KEY>`, `skill:<folder>` (a project skill, relative to
   * the project folder: its instructions and tools reach the model), `skill-allow:<folder>` (the
   * tools its `allowed-tools` pre-approves), `skill-tool:<folder>:<tool>` (a `tools_exec`
   * executable, by the hash of its content), `skill-server:<folder>:<server>` (a server of its
   * mcp.json), `agent:<file name>`, `command:<path>` (a custom command file, by content hash),
   * `memory` (the project's `.geekagent/memory.json`: recalled into the system prompt),
   * `hook:<event>:<n>` (the n-th command hook of that event: a command the agent runs),
   * `plugin:<name>` (a plugin of `.geekagent/plugins.json`, by source and content hash) and
   * `plugin-part:<name>:<part>` (each thing it brings, plugin-declarations.ts).
   */
  key: string;
  kind: DeclarationKind;
  /** The server name, rule pattern, fetch host, `root` or `.env` key. */
  name: string;
  /** The file that declares it (absolute). */
  file: string;
  /**
   * What is compared with the record: a server entry's canonical JSON, the policy, the resolved
   * root; for `.env` the raw value (only its salted hash is ever stored).
   */
  value: string;
  /** One line for a person (untrusted text: print it through `visibleLine`). */
  text: string;
}

export interface FolderDeclarations {
  /** The project folder as given (resolved). */
  projectDir: string;
  /** Its real path: the key of the trust record. */
  folder: string;
  items: Declaration[];
}

export function projectFiles(projectDir: string): { mcp: string; permissions: string; dotenv: string } {
  return {
    mcp: path.join(projectDir, '.geekagent', 'mcp.json'),
    permissions: path.join(projectDir, '.geekagent', 'GeekAgent.json'),
    dotenv: path.join(projectDir, DOTENV_FILE),
  };
}

/** Everything `projectDir` declares. A broken mcp.json throws its ConfigError (as at start-up). */
export async function readDeclarations(projectDir: string): Promise<FolderDeclarations> {
  const dir = path.resolve(projectDir);
  const files = projectFiles(dir);
  const folder = realPath(dir);
  const servers = (await readProjectServers(dir)).flatMap(([name, raw]) => [
    serverDeclaration(files.mcp, name, raw),
    ...serverSandboxDeclaration(files.mcp, name, raw),
  ]);
  const permissions = await permissionDeclarations(files.permissions, folder);
  const env = Object.entries(readModelDotEnv(dir))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => envDeclaration(files.dotenv, name, value));
  const agents = agentDeclarations(path.join(dir, '.geekagent', 'agents'));
  const memory = memoryDeclarations(dir);
  const hooks = await hookDeclarations(files.permissions);
  const plugins = await pluginDeclarations(dir);
  return {
    projectDir: dir,
    folder,
    items: [
      ...servers,
      ...permissions,
      ...hooks,
      ...env,
      ...skillDeclarations(dir),
      ...agents,
      ...commandDeclarations(dir),
      ...plugins,
      ...memory,
    ],
  };
}

/** One item per `.geekagent/agents/*.md`, valued by a hash of its text: an edited agent is asked again. */
export function agentDeclarations(folder: string): Declaration[] {
  let names: string[];
  try {
    names = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = path.join(folder, name);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return [];
    }
    const value = `sha256:${createHash('sha256').update(text).digest('hex')}`;
    return [{ key: `agent:${name}`, kind: 'agent' as const, name, file, value, text: agentText(name) }];
  });
}

/**
 * The project's memory file, when there is one. Valued by its presence, not its content: the
 * agent rewrites it every `memory_write`, and a trusted folder's own notes must not ask again
 * (its writes are recorded as trusted, see create-app); a cloned repository's notes are asked.
 */
export function memoryDeclarations(projectDir: string): Declaration[] {
  const file = path.join(projectDir, '.geekagent', 'memory.json');
  try {
    if (!lstatSync(file).isFile()) return [];
  } catch {
    return [];
  }
  return [memoryDeclaration(file)];
}

/**
 * Each command hook of the project's GeekAgent.json, valued by its event, matcher, command and
 * timeout: a new or changed hook is asked again. A broken section declares nothing (nothing of it runs).
 */
export async function hookDeclarations(file: string): Promise<Declaration[]> {
  const { hooks } = await readHookSettings(file);
  const seen = new Map<string, number>();
  return hooks.map((hook) => {
    const n = seen.get(hook.event) ?? 0;
    seen.set(hook.event, n + 1);
    const name = `${hook.event} ${hook.matcher === '' ? '*' : hook.matcher}`;
    return {
      key: `hook:${hook.event}:${n}`,
      kind: 'hook' as const,
      name,
      file,
      value: canonicalJson({ event: hook.event, ...(hook.raw as object) }),
      text: hookText(name, hook.command),
    };
  });
}

export function hookText(name: string, command: string): string {
  return `hook ${name}: runs ${command}`;
}

export function memoryDeclaration(file: string): Declaration {
  return { key: 'memory', kind: 'memory', name: 'memory.json', file, value: 'present', text: MEMORY_TEXT };
}

export const MEMORY_TEXT = 'project memory .geekagent/memory.json (notes recalled into the prompt)';

export function agentText(name: string): string {
  return `custom agent .geekagent/agents/${name} (its tools and instructions)`;
}

export function serverDeclaration(file: string, name: string, raw: unknown): Declaration {
  const value = canonicalJson(raw);
  return { key: `server:${name}`, kind: 'server', name, file, value, text: serverText(name, value) };
}

/** An `allow` rule the person added ("always" answer): recorded so the folder stays trusted. */
export function allowDeclaration(file: string, pattern: string): Declaration {
  return {
    key: `allow:${pattern}`,
    kind: 'allow',
    name: pattern,
    file,
    value: 'allow',
    text: allowText(pattern),
  };
}

/** `MCP server demo: node examples/demo-server.mjs (env: K=${V})` from a canonical entry. */
export function serverText(name: string, canonical: string): string {
  return `MCP server ${name}: ${describeEntry(canonical)}`;
}

export function allowText(pattern: string): string {
  return `tool rule "${pattern}": "allow"`;
}

export function annotationAllowText(name: string): string {
  return `annotation rule ${name}: "allow" (the server's claim)`;
}

/** `readOnlyHint "mcp_gh_*"` → the declaration of an annotation rule that allows. */
function annotationAllowDeclaration(file: string, pattern: string, hint: string): Declaration {
  const name = `${hint} "${pattern}"`;
  return {
    key: `annotation:${hint}:${pattern}`,
    kind: 'annotationAllow',
    name,
    file,
    value: 'allow',
    text: annotationAllowText(name),
  };
}

export function fetchHostText(host: string): string {
  return `fetch may reach "${host}" (fetch.allowHosts)`;
}

function fetchHostDeclaration(file: string, host: string): Declaration {
  return {
    key: `fetch:${host}`,
    kind: 'fetchHost',
    name: host,
    file,
    value: 'allow',
    text: fetchHostText(host),
  };
}

function describeEntry(canonical: string): string {
  let entry: unknown;
  try {
    entry = JSON.parse(canonical);
  } catch {
    return canonical;
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return canonical;
  const fields = entry as Record<string, unknown>;
  const extras: string[] = [];
  let main: string;
  if (typeof fields.url === 'string') {
    main = `${typeof fields.type === 'string' ? fields.type : 'http'} ${fields.url}`;
    if (isRecord(fields.headers)) extras.push(`headers: ${pairs(fields.headers, ': ')}`);
  } else if (typeof fields.command === 'string') {
    const args = Array.isArray(fields.args) ? fields.args.map(String) : [];
    main = [fields.command, ...args].map(shellQuote).join(' ');
    if (isRecord(fields.env)) extras.push(`env: ${pairs(fields.env, '=')}`);
    if (typeof fields.cwd === 'string') extras.push(`cwd: ${fields.cwd}`);
  } else {
    return canonical;
  }
  if (fields.sandbox === true || isRecord(fields.sandbox)) extras.push('sandboxed');
  if (fields.disabled === true) extras.push('disabled');
  return extras.length > 0 ? `${main} (${extras.join('; ')})` : main;
}

function pairs(record: Record<string, unknown>, separator: string): string {
  return Object.entries(record)
    .map(([key, value]) => `${key}${separator}${String(value)}`)
    .join(', ');
}

/** A word as a person would type it in a shell: bare when safe, else single-quoted. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_\-.,/:=@+%^~]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

async function permissionDeclarations(file: string, folder: string): Promise<Declaration[]> {
  const read = await readJsonFile(file);
  if (read.kind === 'missing') return [];
  const parsed = permissionFileSchema.safeParse(read.value);
  // A broken file is reported by the permission loader at start-up; nothing of it is used.
  if (!parsed.success) return [];
  const items: Declaration[] = [];
  for (const [pattern, policy] of Object.entries(parsed.data.tools ?? {})) {
    // A rule that only repeats a built-in default allows nothing new.
    if (policy !== 'allow' || BUILTIN_POLICIES[pattern] === 'allow') continue;
    items.push(allowDeclaration(file, pattern));
  }
  for (const [pattern, hints] of Object.entries(parsed.data.annotations ?? {})) {
    for (const [hint, policy] of Object.entries(hints)) {
      if (policy === 'allow') items.push(annotationAllowDeclaration(file, pattern, hint));
    }
  }
  // Private addresses `fetch` may reach: a repo must not open the way to the person's network.
  for (const host of parsed.data.fetch?.allowHosts ?? []) items.push(fetchHostDeclaration(file, host));
  const root = parsed.data.root;
  if (root !== undefined) {
    const resolved = path.resolve(path.dirname(file), root);
    if (!isInsideFolder(resolved, folder)) {
      items.push({
        key: 'root',
        kind: 'root',
        name: 'root',
        file,
        value: resolved,
        text: `root "${root}" (${resolved}), outside the project folder`,
      });
    }
  }
  return items;
}

function envDeclaration(file: string, name: string, value: string): Declaration {
  return { key: `env:${name}`, kind: 'env', name, file, value, text: envText(name, value) };
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;

function envText(name: string, value: string): string {
  return SECRET_NAME.test(name) ? `.env ${name} (secret, not shown)` : `.env ${name}=${value}`;
}

/** Whether `target` (resolved through symlinks when it exists) is `folder` or inside it. */
export function isInsideFolder(target: string, folder: string): boolean {
  const real = realPath(target);
  const base = realPath(folder);
  return real === base || real.startsWith(base.endsWith(path.sep) ? base : `${base}${path.sep}`);
}

export function realPath(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    return path.resolve(target);
  }
}

/** JSON with object keys sorted at every depth: equal content, equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
