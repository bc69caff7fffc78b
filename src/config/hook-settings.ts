/**
 * The `"hooks"` section of a GeekAgent.json, in Claude Code's shape:
 * `{"PreToolUse": [{"matcher": "run_shell|write", "hooks": [{"type": "command", "command": "…",
 * "timeout": 60}]}]}`. Read on its own (a broken hooks section is reported, never fatal for the
 * file's rules) by the hooks feature and by folder trust, which lists a project's hooks.
 */
import { describeSchemaError, readJsonFile } from '../util/json-file.js';
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

const commandSchema = z.looseObject({
  type: z.literal('command'),
  command: z.string().check(z.minLength(1)),
  timeout: z.optional(z.number().check(z.positive(), z.lte(86_400))),
});

const matcherGroupSchema = z.looseObject({
  matcher: z.optional(z.string()),
  hooks: z.array(commandSchema),
});

export const hooksSectionSchema = z.partialRecord(z.enum(HOOK_EVENTS), z.array(matcherGroupSchema));

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

/** The hooks `file` declares; a missing file or section declares none. */
export async function readHookSettings(file: string): Promise<HookSettingsRead> {
  let read: Awaited<ReturnType<typeof readJsonFile>>;
  try {
    read = await readJsonFile(file);
  } catch (error) {
    return { hooks: [], problem: `${file}: ${(error as Error).message}` };
  }
  if (read.kind === 'missing') return { hooks: [] };
  const section =
    typeof read.value === 'object' && read.value !== null
      ? (read.value as Record<string, unknown>).hooks
      : undefined;
  if (section === undefined) return { hooks: [] };
  const parsed = hooksSectionSchema.safeParse(section);
  if (!parsed.success) {
    return {
      hooks: [],
      problem: `${describeSchemaError(file, parsed.error, ['hooks'])} (this file's hooks are not used)`,
    };
  }
  const hooks: HookSetting[] = [];
  for (const event of HOOK_EVENTS) {
    for (const group of parsed.data[event] ?? []) {
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
