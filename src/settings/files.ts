/**
 * The settings files of a run: which file each scope has (user: `$GEEKAGENT_HOME`; project: the
 * folder's checked-in `.geekagent/`; project-local: its git-ignored `.local` variant, as Claude
 * Code's `settings.local.json`), and one reader per run that reads and parses each file once,
 * with the JSON helpers' file + line/column messages.
 */
import path from 'node:path';
import { type JsonFileRead, readJsonFile } from '../util/json-file.js';
import { stateFilePath } from '../util/state-dir.js';

/** Lowest precedence first: a later scope's value wins where its section lets it. */
export const SETTINGS_SCOPES = ['user', 'project', 'project-local'] as const;

export type SettingsScope = (typeof SETTINGS_SCOPES)[number];

/** The files settings come from. */
export type SettingsFileKind = 'GeekAgent.json' | 'mcp.json' | 'models.json';

/** `GeekAgent.json` → `GeekAgent.local.json`: the person's own, uncommitted project settings. */
function localName(kind: SettingsFileKind): string {
  return kind.replace(/\.json$/, '.local.json');
}

export interface SettingsPlaces {
  /** The project folder (absolute). */
  projectDir: string;
  /** `$GEEKAGENT_HOME` or `~/.geekagent`. */
  userDir: string;
}

/**
 * Where `kind` lives in `scope`; undefined where that scope has none: models.json is the
 * person's own only (a cloned folder must not choose where requests and keys go), and mcp.json
 * has no project-local file (servers private to one person are the user file's; a project-local
 * server list nobody reads would only look like a scope).
 */
export function settingsFilePath(
  kind: SettingsFileKind,
  scope: SettingsScope,
  places: SettingsPlaces,
): string | undefined {
  if (scope === 'user') return path.join(path.resolve(places.userDir), kind);
  if (kind === 'models.json') return undefined;
  if (kind === 'mcp.json' && scope === 'project-local') return undefined;
  return stateFilePath(places.projectDir, scope === 'project' ? kind : localName(kind));
}

/** A project's settings file (its `.geekagent` folder): what trust reads is what the run loads. */
export function projectSettingsFile(kind: SettingsFileKind, projectDir: string): string {
  return stateFilePath(projectDir, kind);
}

/**
 * One run's reads: each file is read and parsed once, however many sections it holds. A syntax
 * error is the same ConfigError (file, line, column) for every reader that asks. Made per run
 * (never module state): a reload makes a new one.
 */
export class SettingsFiles {
  readonly #reads = new Map<string, Promise<JsonFileRead>>();
  readonly #onRead: ((file: string) => void) | undefined;

  constructor(options: { onRead?: (file: string) => void } = {}) {
    this.#onRead = options.onRead;
  }

  read(file: string): Promise<JsonFileRead> {
    const resolved = path.resolve(file);
    let read = this.#reads.get(resolved);
    if (!read) {
      this.#onRead?.(resolved);
      read = readJsonFile(resolved);
      // Both outcomes are kept: a broken file is reported to each reader, and read no second time.
      read.catch(() => undefined);
      this.#reads.set(resolved, read);
    }
    return read;
  }
}

/** A reader that does not share a run's: reads the file now (the callers that reload). */
export function readOnce(files: SettingsFiles | undefined, file: string): Promise<JsonFileRead> {
  return files ? files.read(file) : readJsonFile(file);
}
