/**
 * The section registry's type and the one way a section is read: a feature declares its section
 * (`SettingsSection`: its key in which file, its zod schema, which scopes may set it and how each
 * merges), and `readSection` hands it the scopes' values, each with the file it came from.
 */
import { ConfigError, describeSchemaError, type SchemaError } from '../util/json-file.js';
import type * as z from '../util/schema.js';
import {
  readOnce,
  type SettingsFileKind,
  type SettingsFiles,
  type SettingsPlaces,
  type SettingsScope,
  settingsFilePath,
} from './files.js';

/**
 * Where a value came from: a scope's file and the key in it, a variable of the real environment
 * (or of a trusted `.env`, then `file` names it), a command-line flag, or nothing (the default).
 */
export type SettingSource =
  | { kind: 'file'; scope: SettingsScope; file: string; key: string }
  | { kind: 'env'; variable: string; file?: string }
  | { kind: 'cli'; flag: string }
  | { kind: 'default' };

/**
 * How a scope's value joins the ones below it. `set`: it overrides them key by key. `narrow`: it
 * may only tighten what they set (the section's own merge says what tightening is). `listed`:
 * its entries join theirs, and the feature decides what they do (e.g. project rules outrank user rules).
 */
export type MergeRule = 'set' | 'narrow' | 'listed';

export interface SettingsSection<T> {
  /** Its top-level key in the file (`sandbox`, `hooks`); '' for a file that is one section. */
  key: string;
  file: SettingsFileKind;
  schema: z.ZodMiniType<T>;
  /** The scopes that may declare it (a scope left out is never read for it) and how each merges. */
  scopes: Partial<Record<SettingsScope, MergeRule>>;
  /**
   * A value that fails the schema: `throw` stops the run (a ConfigError naming file and JSON
   * path), `report` leaves that scope's value out and says why (a notice, never a failed start).
   */
  invalid: 'throw' | 'report';
}

/** One scope's value of a section. */
export interface SectionLayer<T> {
  scope: SettingsScope;
  file: string;
  value: T;
}

export interface SectionRead<T> {
  /** Lowest precedence first (user, project, project-local); a scope without the section is absent. */
  layers: SectionLayer<T>[];
  /** `report` sections: why a scope's value was left out (`<file>: at hooks.Stop[0]: …`). */
  problems: string[];
}

/**
 * The section's value in each of `scopes` (default: every scope it declares), through the run's
 * reader. Home may be the project itself (the agent started in the user folder): one file, one layer.
 */
export async function readSection<T>(
  files: SettingsFiles | undefined,
  section: SettingsSection<T>,
  places: SettingsPlaces,
  scopes?: readonly SettingsScope[],
): Promise<SectionRead<T>> {
  const wanted = (Object.keys(section.scopes) as SettingsScope[]).filter(
    (scope) => !scopes || scopes.includes(scope),
  );
  const seen = new Set<string>();
  const read: SectionRead<T> = { layers: [], problems: [] };
  for (const scope of wanted) {
    const file = settingsFilePath(section.file, scope, places);
    if (file === undefined || seen.has(file)) continue;
    seen.add(file);
    const layer = await readSectionFile(files, section, file);
    if (layer.problem !== undefined) read.problems.push(layer.problem);
    else if (layer.found) read.layers.push({ scope, file, value: layer.value as T });
  }
  return read;
}

export type SectionFileRead<T> =
  | {
      found: false;
      problem?: string;
      /** The file itself could not be read or parsed. */
      unreadable?: boolean;
      /** The schema's issues, when the value failed it (for a reader with its own wording). */
      issues?: SchemaError['issues'];
    }
  | { found: true; value: T; problem?: undefined };

/** The section as one file declares it: absent (no file, no key), its value, or why it is not used. */
export async function readSectionFile<T>(
  files: SettingsFiles | undefined,
  section: SettingsSection<T>,
  file: string,
): Promise<SectionFileRead<T>> {
  let read: Awaited<ReturnType<typeof readOnce>>;
  try {
    read = await readOnce(files, file);
  } catch (error) {
    if (section.invalid === 'throw') throw error;
    return { found: false, problem: (error as Error).message, unreadable: true };
  }
  if (read.kind === 'missing') return { found: false };
  const raw = section.key === '' ? read.value : topLevelKey(read.value, section.key);
  if (raw === undefined) return { found: false };
  const parsed = section.schema.safeParse(raw);
  if (parsed.success) return { found: true, value: parsed.data };
  const prefix = section.key === '' ? [] : [section.key];
  const message = describeSchemaError(file, parsed.error, prefix);
  if (section.invalid === 'throw') throw new ConfigError(message, file);
  return { found: false, problem: message, issues: parsed.error.issues };
}

function topLevelKey(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
