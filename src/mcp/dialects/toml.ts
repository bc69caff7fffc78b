/**
 * Reads Codex's `config.toml` through `smol-toml` (a full TOML 1.0 parser) and turns its result
 * into plain values: errors become a `TomlError` naming the line, dates become their TOML text
 * (Codex writes none under `mcp_servers`; a string is what the converter can report).
 */
import { TomlError as ParseError, parse } from 'smol-toml';

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

export class TomlError extends Error {
  override readonly name = 'TomlError';
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export function parseToml(text: string): TomlTable {
  try {
    return plain(parse(text.startsWith('\uFEFF') ? text.slice(1) : text)) as TomlTable;
  } catch (error) {
    if (error instanceof ParseError) {
      // The library's message repeats the document prefix and draws a code frame; keep the reason.
      const reason = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
      throw new TomlError(reason || 'invalid TOML', error.line);
    }
    throw error;
  }
}

function plain(value: unknown): TomlValue {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    const table: TomlTable = {};
    for (const [key, entry] of Object.entries(value)) table[key] = plain(entry);
    return table;
  }
  return value as TomlValue;
}
