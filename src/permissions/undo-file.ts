/**
 * The undo history's file: where it lives (`<userDir>/projects/<key>/undo.json`, the person's own
 * state keyed by the project folder as sessions are: config/project-state.ts), its shape, and
 * reading and writing it — read without following a link (a symlinked or special file is
 * refused, not reset), written atomically, 0600 (it holds earlier file contents), its folders
 * below the user's state folder made 0700 and never through a link.
 */
import path from 'node:path';
import { userProjectDir } from '../config/project-state.js';
import { ConfigError, parseJsonText } from '../util/json-file.js';
import { writeFileAtomic } from '../util/safe-write.js';
import * as z from '../util/schema.js';
import { ensureUserStateFolder, readStateFile } from '../util/state-dir.js';

export interface UndoEntry {
  /** Absolute path of the changed file. */
  path: string;
  /** Its content before the change; null: the file did not exist. */
  previous: string | null;
  /** ISO time of the change. */
  at: string;
  /** The id of the user message whose turn made the change (absent: no turn, e.g. `mcp serve`). */
  turn?: string;
  /** SHA-256 (hex) of what was written: a file is restored only while it still holds it. */
  written?: string;
}

/** `<userDir>/projects/<key>/undo.json`: this project folder's undo history, in the person's own state. */
export function undoFilePath(userDir: string, projectDir: string): string {
  return path.join(userProjectDir(userDir, projectDir), 'undo.json');
}

/** Built when an undo file is first read (zod builds every check up front; most runs never read it). */
function buildUndoFileSchema() {
  return z.object({
    entries: z.array(
      z.object({
        path: z.string().check(z.refine((value) => path.isAbsolute(value), 'expected an absolute path')),
        previous: z.nullable(z.string()),
        at: z.string(),
        turn: z.optional(z.string()),
        written: z.optional(z.string()),
      }),
    ),
  });
}

let builtSchema: ReturnType<typeof buildUndoFileSchema> | undefined;

function undoFileSchema(): ReturnType<typeof buildUndoFileSchema> {
  builtSchema ??= buildUndoFileSchema();
  return builtSchema;
}

export class UndoFile {
  constructor(
    readonly file: string,
    /** The user's state folder holding the file (absent: its folder is simply created, 0700). */
    private readonly stateBase?: string,
  ) {}

  /** The entries, oldest first; `reset` when the file is not valid JSON of the right shape. */
  async load(): Promise<UndoEntry[] | 'reset'> {
    const text = await readStateFile(this.file);
    if (text === undefined) return [];
    let value: unknown;
    try {
      value = await parseJsonText(text, this.file);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return 'reset';
    }
    const parsed = undoFileSchema().safeParse(value);
    return parsed.success ? parsed.data.entries : 'reset';
  }

  async save(entries: UndoEntry[]): Promise<void> {
    if (this.stateBase !== undefined)
      ensureUserStateFolder(this.stateBase, path.dirname(this.file), 'undo history');
    await writeFileAtomic(this.file, `${JSON.stringify({ entries }, null, 2)}\n`, {
      mode: 0o600,
      ...(this.stateBase !== undefined ? { noMkdir: true } : { dirMode: 0o700 }),
    });
  }
}
