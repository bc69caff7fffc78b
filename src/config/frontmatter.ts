/**
 * The one frontmatter reader (skills' SKILL.md, agent files, custom commands): the `---` block at
 * the top of a Markdown file, read as YAML by the `yaml` package with its failsafe schema, so
 * every scalar stays the text it was written as (`version: 1.0` is "1.0", `true` is "true").
 * Lenient where files in the wild are: a top-level plain value is read as written even when YAML
 * would refuse it (`description: Use when: the user asks`), a block scalar loses its final line
 * break, and a folded one its inner spacing. Keys are top-level names; values are a string, a
 * list of strings or one level of map of strings. What it cannot read is a FrontmatterError with
 * its line (1-based, in the whole file). `yaml` is loaded with the first frontmatter, not at start-up.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

export type FrontValue = string | string[] | Record<string, string>;

export interface Frontmatter {
  /** Whether the file opens with a `---` block (without one, all of it is body). */
  found: boolean;
  /** Each key's value; null: the key has none (`tools:` and nothing under it). */
  fields: Record<string, FrontValue | null>;
  /** Line (1-based, in the file) of each key, for error messages. */
  lines: Record<string, number>;
  /** Everything after the closing `---` line, as it is. */
  body: string;
}

export class FrontmatterError extends Error {
  constructor(
    message: string,
    readonly line: number,
    /** `unclosed`: no closing `---`; `syntax`: something in the block cannot be read. */
    readonly kind: 'unclosed' | 'syntax' = 'syntax',
  ) {
    super(message);
  }
}

let yaml: typeof Yaml | undefined;

/** The `yaml` package, required on first use (a run whose files have no frontmatter never loads it). */
function loadYaml(): typeof Yaml {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yaml;
}

export function readFrontmatter(text: string): Frontmatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { found: false, fields: {}, lines: {}, body: text };
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) throw new FrontmatterError('frontmatter has no closing ---', 1, 'unclosed');
  const body = lines.slice(end + 1).join('\n');
  const block = lines.slice(1, end).map(plainValueQuoted).join('\n');
  const { parseDocument, LineCounter, isMap, isScalar, isSeq } = loadYaml();
  const counter = new LineCounter();
  const document = parseDocument(block, { schema: 'failsafe', lineCounter: counter, uniqueKeys: false });
  // The block starts on the file's second line.
  const lineAt = (offset: number | undefined) =>
    offset === undefined ? 1 : counter.linePos(offset).line + 1;
  const problem = document.errors[0];
  if (problem) {
    const line = lineAt(problem.pos[0]);
    throw new FrontmatterError(problemText(problem, lines[line - 1] ?? ''), line);
  }
  const fields: Record<string, FrontValue | null> = {};
  const keyLines: Record<string, number> = {};
  const root = document.contents;
  if (root === null || (isScalar(root) && root.value === null))
    return { found: true, fields, lines: keyLines, body };
  if (!isMap(root)) throw new FrontmatterError('expected "key: value" lines', lineAt(root.range?.[0]));
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    const line = lineAt(isScalar(pair.key) ? pair.key.range?.[0] : undefined);
    if (key === undefined) throw new FrontmatterError('a key must be a name', line);
    keyLines[key] = line;
    fields[key] = fieldValue(pair.value, line);
  }
  return { found: true, fields, lines: keyLines, body };

  function fieldValue(node: unknown, line: number): FrontValue | null {
    if (node === null || node === undefined) return null;
    if (isScalar(node)) return node.value === null ? null : textOf(node);
    const where = (inner: unknown) => lineAt((inner as Yaml.Node | null)?.range?.[0]);
    if (isSeq(node)) {
      return node.items.map((item) => {
        if (!isScalar(item)) throw new FrontmatterError('a list item must be a plain value', where(item));
        return item.value === null ? '' : textOf(item);
      });
    }
    if (isMap(node)) {
      const map: Record<string, string> = {};
      for (const pair of node.items) {
        if (!isScalar(pair.key) || (pair.value !== null && !isScalar(pair.value)))
          throw new FrontmatterError('a nested value must be a plain value', where(pair.key));
        map[String(pair.key.value)] =
          pair.value === null || pair.value.value === null ? '' : textOf(pair.value);
      }
      return map;
    }
    throw new FrontmatterError('cannot read this value', line);
  }
}

/** A scalar's text; a block scalar without its last line break, a folded one with single spaces. */
function textOf(scalar: Yaml.Scalar): string {
  const text = String(scalar.value);
  if (scalar.type === 'BLOCK_FOLDED') return text.replace(/\s+/g, ' ').trim();
  if (scalar.type === 'BLOCK_LITERAL') return text.replace(/\n+$/, '');
  return text;
}

/**
 * A top-level `key: value` line as YAML reads it the way the old readers did: `key:value` gets its
 * space, and a plain value YAML would refuse or misread (a `: ` inside it, a leading `*`, `&`, `!`,
 * `%`, `@`, backtick or `- `) is single-quoted, so it reads as written. A ` # comment` stays one.
 */
function plainValueQuoted(line: string): string {
  const match = /^([A-Za-z_][\w-]*)\s*:(.*)$/.exec(line);
  if (!match) return line;
  const key = match[1]!;
  const rest = match[2]!.trim();
  if (rest === '') return `${key}:`;
  if (/^["'[{|>#]/.test(rest)) return `${key}: ${rest}`;
  const comment = /\s#.*$/.exec(rest);
  const value = comment ? rest.slice(0, comment.index) : rest;
  if (!/^[*&!%@`]|^-(\s|$)|:(\s|$)/.test(value)) return `${key}: ${rest}`;
  return `${key}: '${value.replaceAll("'", "''")}'${comment ? comment[0] : ''}`;
}

/** The message of a `key: [a, b` list not closed on its line. */
export const UNCLOSED_LIST = 'a list [ ... ] is not closed on its line';

/** What YAML could not read, in the words the old readers used for the common cases. */
function problemText(problem: Yaml.YAMLError, line: string): string {
  const message = problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  if (problem.code === 'MISSING_CHAR' && message.includes('"quote')) return 'a "quoted" value is not closed';
  if (problem.code === 'MISSING_CHAR' && message.includes("'quote")) return "a 'quoted' value is not closed";
  if (/end with a \]|\]/.test(message) && /^[\w-]+\s*:\s*\[[^\]]*$/.test(line.trim())) return UNCLOSED_LIST;
  return `cannot read "${line.trim()}" (${message})`;
}

/**
 * The skills' and custom commands' view: a key without a value is "", the body starts at its
 * first non-empty line, and no frontmatter is all body.
 */
export function parseFrontmatter(text: string): {
  fields: Record<string, FrontValue>;
  lines: Record<string, number>;
  body: string;
} {
  const read = readFrontmatter(text);
  if (!read.found) return { fields: {}, lines: {}, body: text };
  const fields: Record<string, FrontValue> = {};
  for (const [key, value] of Object.entries(read.fields)) fields[key] = value ?? '';
  return { fields, lines: read.lines, body: read.body.replace(/^\n+/, '') };
}
