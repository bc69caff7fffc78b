/**
 * The vocabulary of `geekagent mcp import`: where another client keeps its MCP servers, and what
 * reading one of its files gives — entries in our mcp.json shape, entries that cannot be
 * converted (with why), and fields left out of a converted entry.
 */

export const DIALECTS = ['claude-code', 'claude-desktop', 'vscode', 'cursor', 'gemini', 'codex'] as const;
export type DialectName = (typeof DIALECTS)[number];

/** Where a source file lives: in the project folder, or the person's own (home) configuration. */
export type SourceLevel = 'project' | 'user';

export interface DialectContext {
  /** Absolute project folder. */
  projectDir: string;
  homeDir: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

/** One place a dialect keeps servers (a file, or one part of a file such as `projects[<dir>]`). */
export interface SourceLocation {
  file: string;
  level: SourceLevel;
  /** Which part of the file, when not the whole (e.g. `projects["/abs/dir"].mcpServers`). */
  part?: string;
}

/** A server converted to our shape (unexpanded, as `mcp add` writes it). */
export interface ConvertedServer {
  name: string;
  entry: Record<string, unknown>;
  /** Fields that have no GeekAgent equivalent and were left out, each with why. */
  leftOut: string[];
}

export interface UnconvertibleServer {
  name: string;
  reason: string;
}

export interface SourceRead {
  dialect: DialectName;
  location: SourceLocation;
  servers: ConvertedServer[];
  unconvertible: UnconvertibleServer[];
}

/** A file that exists but cannot be read as its dialect (bad JSON/TOML, wrong shape). */
export interface SourceProblem {
  dialect: DialectName;
  file: string;
  error: string;
}

export interface Dialect {
  name: DialectName;
  /** The places to look, most specific first (on a name clash within one target, the first wins). */
  locations(context: DialectContext): SourceLocation[];
  /** Reads one location's text; `undefined` when the file has no part for it (no servers there). */
  read(text: string, location: SourceLocation, context: DialectContext): SourceRead | undefined;
}
