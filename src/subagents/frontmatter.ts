/**
 * Agent files' view of their frontmatter (config/frontmatter.ts reads it): each field with its
 * line, a value a string or a list (`tools:` with nothing under it is an empty list), and every
 * problem as a result with its line (1-based, in the whole file) rather than an exception.
 */
import { FrontmatterError, readFrontmatter, UNCLOSED_LIST } from '../config/frontmatter.js';
import { errorMessage } from '../util/errors.js';

export type FrontmatterValue = string | string[];

export type Frontmatter =
  | { ok: true; fields: Record<string, { value: FrontmatterValue; line: number }>; body: string }
  | { ok: false; line: number; message: string };

export function parseFrontmatter(text: string): Frontmatter {
  let read: ReturnType<typeof readFrontmatter>;
  try {
    read = readFrontmatter(text);
  } catch (error) {
    if (!(error instanceof FrontmatterError)) return { ok: false, line: 1, message: errorMessage(error) };
    if (error.kind === 'unclosed') {
      const line = text.split(/\r?\n/).length;
      return { ok: false, line, message: 'the frontmatter block is not closed with "---"' };
    }
    if (error.message === UNCLOSED_LIST) {
      const key = /^([\w-]+)\s*:/.exec(text.split(/\r?\n/)[error.line - 1] ?? '')?.[1];
      if (key) return { ok: false, line: error.line, message: `unclosed list for "${key}"` };
    }
    return { ok: false, line: error.line, message: error.message };
  }
  if (!read.found) return { ok: false, line: 1, message: 'expected a frontmatter block starting with "---"' };
  const fields: Record<string, { value: FrontmatterValue; line: number }> = {};
  for (const [key, value] of Object.entries(read.fields)) {
    const line = read.lines[key]!;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return { ok: false, line, message: `"${key}" must be a text or a list, not a map` };
    fields[key] = { value: value ?? [], line };
  }
  return { ok: true, fields, body: read.body };
}
