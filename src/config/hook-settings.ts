/**
 * The `"hooks"` section of a GeekAgent.json, in Claude Code's shape:
 * `{"PreToolUse": [{"matcher": "run_shell|write", "hooks": [{"type": "command", "command": "…",
 * "timeout": 60}]}]}`. Read on its own (a broken hooks section is reported, never fatal for the
 * file's rules) by the hooks feature and by folder trust, which lists a project's hooks. Declared
 * as a settings section (settings/): the user's and the project's file, not the project-local one
 * (trust lists the project file's hooks; a hook nobody was asked about must not run).
 */
import type { SettingsFiles } from '../settings/files.js';
import { readSectionFile, type SettingsSection } from '../settings/section.js';
import * as z from '../util/schema.js';

export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
] as const;

export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Seconds a hook may run when its entry names no `timeout`. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

function buildHooksSectionSchema() {
  const commandSchema = z.looseObject({
    type: z.literal('command'),
    command: z.string().check(z.minLength(1)),
    timeout: z.optional(z.number().check(z.positive(), z.lte(86_400))),
  });
  const matcherGroupSchema = z.looseObject({
    matcher: z.optional(z.string()),
    hooks: z.array(commandSchema),
  });
  return z.partialRecord(z.enum(HOOK_EVENTS), z.array(matcherGroupSchema));
}

/** Built on first use: a run whose settings declare no hooks never needs it. */
export const hooksSectionSchema = z.lazySchema(buildHooksSectionSchema);

export type HooksSection = z.infer<ReturnType<typeof buildHooksSectionSchema>>;

export const hookSettingsSection: SettingsSection<HooksSection> = {
  key: 'hooks',
  file: 'GeekAgent.json',
  get schema() {
    return hooksSectionSchema();
  },
  scopes: { user: 'listed', project: 'listed' },
  invalid: 'report',
};

/** One configured command, flattened out of its matcher group. */
export interface HookSetting {
  event: HookEvent;
  /** The tool-name pattern ('' or '*': every tool; for other events, what Claude Code matches). */
  matcher: string;
  command: string;
  timeoutSeconds: number;
  /** The file it comes from (absolute). */
  file: string;
  /** Its raw entry (matcher and command), for the trust record. */
  raw: unknown;
}

export interface HookSettingsRead {
  hooks: HookSetting[];
  /** Why the section was not used: `<file>: hooks.PreToolUse[0].hooks: …`. */
  problem?: string;
}

/**
 * The hooks `file` declares; a missing file or section declares none. `files`: the run's settings
 * reads (the file read once for every section); left out, the file is read now.
 */
export async function readHookSettings(file: string, files?: SettingsFiles): Promise<HookSettingsRead> {
  const read = await readSectionFile(files, hookSettingsSection, file);
  if (!read.found) {
    if (read.problem === undefined) return { hooks: [] };
    return {
      hooks: [],
      problem: read.unreadable
        ? `${file}: ${read.problem}`
        : `${read.problem} (this file's hooks are not used)`,
    };
  }
  const hooks: HookSetting[] = [];
  for (const event of HOOK_EVENTS) {
    for (const group of read.value[event] ?? []) {
      const matcher = group.matcher ?? '';
      for (const hook of group.hooks) {
        hooks.push({
          event,
          matcher,
          command: hook.command,
          timeoutSeconds: hook.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS,
          file,
          raw: {
            matcher,
            command: hook.command,
            ...(hook.timeout !== undefined ? { timeout: hook.timeout } : {}),
          },
        });
      }
    }
  }
  return { hooks };
}
