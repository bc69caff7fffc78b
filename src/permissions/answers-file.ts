/**
 * The person's "always" answers for one project folder: `<userDir>/projects/<key>/permissions.json`
 * (`{"tools": {"<rule>": "allow" | "deny"}}`), in their own state keyed by the folder as undo and sessions
 * are (config/project-state.ts), so an answer never lands in the repository's tracked files. Read
 * without following a link; written atomically, 0600, under a lock (two agents answering at once
 * keep both answers), its folders made 0700 and never through a link.
 */
import path from 'node:path';
import { userProjectDir } from '../config/project-state.js';
import { withFileLock } from '../util/file-lock.js';
import { ConfigError, describeSchemaError, parseJsonText } from '../util/json-file.js';
import { writeFileAtomic } from '../util/safe-write.js';
import * as z from '../util/schema.js';
import { ensureUserStateFolder, readStateFile } from '../util/state-dir.js';
import type { Policy } from './types.js';

export const ANSWERS_FILE_NAME = 'permissions.json';

/** `<userDir>/projects/<key>/permissions.json`. */
export function answersFilePath(userDir: string, projectDir: string): string {
  return path.join(userProjectDir(userDir, projectDir), ANSWERS_FILE_NAME);
}

// Built when an answers file is read, not at every start.
const answersSchema = z.lazySchema(() =>
  z.looseObject({ tools: z.optional(z.record(z.string(), z.enum(['allow', 'ask', 'deny']))) }),
);

/** The saved rules; none when the file is missing. A broken file is an error naming it. */
export async function readAnswers(file: string): Promise<Record<string, Policy>> {
  const text = await readStateFile(file);
  if (text === undefined) return {};
  const parsed = answersSchema().safeParse(await parseJsonText(text, file));
  if (!parsed.success) throw new ConfigError(describeSchemaError(file, parsed.error), file);
  return { ...parsed.data.tools };
}

/**
 * Adds one rule (`allow` for "always", `deny` for an editor's "always reject"): re-read under the
 * lock, so edits and other agents' answers survive.
 */
export function saveAnswer(
  userDir: string,
  file: string,
  rule: string,
  policy: 'allow' | 'deny' = 'allow',
): Promise<void> {
  ensureUserStateFolder(userDir, path.dirname(file), 'permission answers');
  return withFileLock(
    file,
    async () => {
      const text = await readStateFile(file);
      const current = text === undefined ? {} : await parseJsonText(text, file);
      const parsed = answersSchema().safeParse(current);
      // A file a person broke is reported, never overwritten with a guess.
      if (!parsed.success) throw new ConfigError(describeSchemaError(file, parsed.error), file);
      const next = { ...parsed.data, tools: { ...parsed.data.tools, [rule]: policy } };
      await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600, noMkdir: true });
    },
    { mode: 0o600 },
  );
}
