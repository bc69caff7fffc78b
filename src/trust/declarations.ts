/**
 * Folder trust's vocabulary: what a project folder declares that only takes effect once the person
 * trusts the folder, as items with a stable identity and a canonical value to compare, and how
 * they are read. Trust reads nothing itself: each feature contributes the reader of its own
 * declarations (a `TrustContributor`: MCP servers, permission rules, hooks, `.env` model settings,
 * skills, agents, custom commands, plugins, project memory), and the composition hands the list
 * over (boot/trust-contributors.ts). A contributor is a static descriptor, not an extension: trust
 * is decided before any extension is set up. Read raw (nothing expanded, nothing run).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { SettingsFiles } from '../settings/files.js';

/** Every kind of item a folder can declare; each belongs to exactly one contributor. */
export const DECLARATION_KINDS = [
  'server',
  'serverSandbox',
  'allow',
  'annotationAllow',
  'fetchHost',
  'root',
  'env',
  'skill',
  'skillAllow',
  'skillTool',
  'skillServer',
  'agent',
  'command',
  'memory',
  'hook',
  'plugin',
  'pluginPart',
] as const;

export type DeclarationKind = (typeof DECLARATION_KINDS)[number];

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
   * `plugin-part:<name>:<part>` (each thing it brings, plugins/feature/declarations.ts).
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

/** The project folder a contributor reads. */
export interface ProjectFolder {
  /** The project folder as given (resolved). */
  projectDir: string;
  /** Its real path: the key of the trust record. */
  folder: string;
  /**
   * The run's settings reads, when the decision is a run's (boot/folder-trust.ts): a contributor
   * reading a settings file (GeekAgent.json, mcp.json) reads it through them, so the run reads
   * each file once — and uses the very content trust was decided on. Raw content is the same
   * either way: the declarations, and so the record's hash, do not depend on it.
   */
  files?: SettingsFiles;
}

/**
 * One feature's share of what a folder declares. `read` lists its items in a stable order (they
 * are shown and hashed in the order the contributors are given); `was` words a changed item of one
 * of its `kinds` as it was, from the value the record holds.
 */
export interface TrustContributor {
  /** The feature (for a person reading the list, and tests). */
  name: string;
  kinds: readonly DeclarationKind[];
  /** Throws a ConfigError only for a file the start would refuse too (a broken mcp.json). */
  read(folder: ProjectFolder): Declaration[] | Promise<Declaration[]>;
  was(item: Declaration, before: string): string;
}

/** Everything `projectDir` declares, contributor by contributor, in their order. */
export async function readDeclarations(
  projectDir: string,
  contributors: readonly TrustContributor[],
  files?: SettingsFiles,
): Promise<FolderDeclarations> {
  const dir = path.resolve(projectDir);
  const folder = realPath(dir);
  const items: Declaration[] = [];
  const read: ProjectFolder = files ? { projectDir: dir, folder, files } : { projectDir: dir, folder };
  // One after another: the first contributor's error (a broken mcp.json) is the one reported.
  for (const contributor of contributors) items.push(...(await contributor.read(read)));
  return { projectDir: dir, folder, items };
}

/** A changed item as it was, worded by the contributor of its kind. */
export function wasText(
  contributors: readonly TrustContributor[],
  item: Declaration,
  before: string,
): string {
  const contributor = contributors.find((candidate) => candidate.kinds.includes(item.kind));
  return contributor ? contributor.was(item, before) : `${item.text} (changed)`;
}

/** A server entry (a project's mcp.json, a skill's, `geekagent mcp add`), valued by its canonical JSON. */
export function serverDeclaration(file: string, name: string, raw: unknown): Declaration {
  const value = canonicalJson(raw);
  let text: string | undefined;
  return {
    key: `server:${name}`,
    kind: 'server',
    name,
    file,
    value,
    // Written when shown (a new or changed server), not for every server of every start.
    get text() {
      text ??= serverText(name, value);
      return text;
    },
  };
}

/** `MCP server demo: node examples/demo-server.mjs (env: K=${V})` from a canonical entry. */
export function serverText(name: string, canonical: string): string {
  return `MCP server ${name}: ${describeEntry(canonical)}`;
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
