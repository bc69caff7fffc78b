/**
 * Skill tools: executables in a skill's folder declared in its frontmatter as
 *
 *     tools_exec:
 *       count: "bin/count.sh -- Count the words of the given text"
 *
 * (`<tool>: <path in the skill folder>[ -- <description>]`). Each becomes the tool
 * `skill_<skill>_<tool>` taking `{ args?: string[] }` (passed as argv, no shell), policy `ask`, run
 * with the skill folder as cwd (`GEEKAGENT_PROJECT` = the project root, `GEEKAGENT_SKILL_DIR` = the
 * folder) under run_shell's timeout, output limit and redaction. A skill's own tools are visible
 * only while it is active.
 */
import type { FrontValue } from '../config/frontmatter.js';
import {
  formatResult,
  runProcess,
  SHELL_OUTPUT_LIMIT,
  SHELL_TIMEOUT_MS,
  TailText,
} from '../tools/builtin/shell.js';
import { confine } from '../tools/builtin/shell-sandbox.js';
import { type Tool, ToolError } from '../tools/types.js';
import { BoundedText } from '../util/text.js';
import { readExecutables } from './manifest.js';

export interface SkillTool {
  /** The tool's model-facing name, `skill_<skill>_<tool>`. */
  name: string;
  file: string;
  description: string;
}

/** The declared tools of the skill in `dir`, or the reason they cannot be used. */
export function readSkillTools(skill: string, dir: string, value: FrontValue): SkillTool[] | string {
  const executables = readExecutables(dir, value);
  if (typeof executables === 'string') return executables;
  const tools: SkillTool[] = [];
  for (const { tool, relative, file, description } of executables) {
    const name = `skill_${skill}_${tool}`;
    if (name.length > 64) return `tools_exec: ${name} is longer than 64 characters`;
    tools.push({ name, file, description: description || `Runs ${relative} of the skill ${skill}.` });
  }
  return tools;
}

/**
 * Run under the run's sandbox like run_shell whenever it confines (read-only mode: no writes):
 * a project skill's executable is the folder's code, a user skill's may still be led astray by
 * the model's arguments. A user skill lives in the user state folder, hidden from confined
 * commands: `ownFolderHidden` re-opens that one folder for reading.
 */
export function skillTool(
  skill: string,
  dir: string,
  spec: SkillTool,
  options: { ownFolderHidden?: boolean } = {},
): Tool {
  return {
    name: spec.name,
    description: `${spec.description} (skill ${skill}; arguments are passed as argv; output cut to ${SHELL_OUTPUT_LIMIT} chars)`,
    parameters: {
      type: 'object',
      properties: {
        args: { type: 'array', items: { type: 'string' }, description: 'command-line arguments' },
      },
      additionalProperties: false,
    },
    async describeApproval(args) {
      return {
        title: `About to run the skill tool ${spec.name}`,
        detail: [spec.file, ...argv(args)].join(' '),
        kind: 'command',
      };
    },
    async run(args, ctx) {
      const output = new BoundedText(SHELL_OUTPUT_LIMIT, ctx.redact);
      // The folder is the cwd; the project root is where paths the model names are.
      const env = { ...ctx.env, GEEKAGENT_PROJECT: ctx.sandbox.root, GEEKAGENT_SKILL_DIR: dir };
      const words = argv(args);
      // Argv stays argv: every word single-quoted, and exec so no shell stays in between.
      const confined = await confine(
        `exec ${[spec.file, ...words].map(shellWord).join(' ')}`,
        {},
        ctx,
        options.ownFolderHidden ? { allowRead: [dir] } : {},
      );
      const stderr = confined ? new TailText(STDERR_KEPT) : undefined;
      let note: string | undefined;
      let result: Awaited<ReturnType<typeof runProcess>>;
      try {
        result = confined
          ? await runProcess(
              '/bin/sh',
              ['-c', confined.line],
              dir,
              env,
              ctx.signal,
              SHELL_TIMEOUT_MS,
              output,
              stderr,
            )
          : await runProcess(spec.file, words, dir, env, ctx.signal, SHELL_TIMEOUT_MS, output);
      } finally {
        note = confined?.finish(stderr?.text ?? '');
      }
      if (result.stopped === 'abort') throw new ToolError(`${spec.name}: cancelled`);
      const text = formatResult(result, SHELL_TIMEOUT_MS);
      return note ? `${note}\n${text}` : text;
    },
  };
}

function argv(args: Record<string, unknown>): string[] {
  const list = args.args;
  if (list === undefined) return [];
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string'))
    throw new ToolError('"args" must be an array of strings');
  return list;
}

/** Kept of a confined run's stderr for the sandbox's look at it (as run_shell keeps). */
const STDERR_KEPT = 16_384;

function shellWord(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
