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
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { formatResult, runProcess, SHELL_OUTPUT_LIMIT, SHELL_TIMEOUT_MS } from '../tools/builtin/shell.js';
import { type Tool, ToolError } from '../tools/types.js';
import { BoundedText } from '../util/text.js';
import type { FrontValue } from './frontmatter.js';

export interface SkillTool {
  /** The tool's model-facing name, `skill_<skill>_<tool>`. */
  name: string;
  file: string;
  description: string;
}

const TOOL_NAME = /^[a-z0-9_-]{1,32}$/;

/** The declared tools of the skill in `dir`, or the reason they cannot be used. */
export function readSkillTools(skill: string, dir: string, value: FrontValue): SkillTool[] | string {
  if (typeof value !== 'object' || Array.isArray(value))
    return 'tools_exec must be a map of tool name: path in the skill folder';
  const tools: SkillTool[] = [];
  const base = realpathSync(dir);
  for (const [tool, spec] of Object.entries(value)) {
    if (!TOOL_NAME.test(tool)) return `tools_exec: tool name "${tool}" must be 1-32 of a-z 0-9 _ -`;
    const name = `skill_${skill}_${tool}`;
    if (name.length > 64) return `tools_exec: ${name} is longer than 64 characters`;
    const [relative = '', ...rest] = spec.split(' -- ');
    let file: string;
    try {
      file = realpathSync(path.resolve(dir, relative.trim()));
    } catch {
      return `tools_exec: ${tool}: ${relative.trim()} does not exist in the skill folder`;
    }
    if (!file.startsWith(`${base}${path.sep}`))
      return `tools_exec: ${tool}: ${relative.trim()} is outside the skill folder`;
    if (!statSync(file).isFile()) return `tools_exec: ${tool}: ${relative.trim()} is not a file`;
    const description = rest.join(' -- ').trim() || `Runs ${relative.trim()} of the skill ${skill}.`;
    tools.push({ name, file, description });
  }
  return tools;
}

export function skillTool(skill: string, dir: string, spec: SkillTool): Tool {
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
      const result = await runProcess(spec.file, argv(args), dir, env, ctx.signal, SHELL_TIMEOUT_MS, output);
      if (result.stopped === 'abort') throw new ToolError(`${spec.name}: cancelled`);
      return formatResult(result, SHELL_TIMEOUT_MS);
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
