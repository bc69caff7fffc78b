/**
 * What a sub-agent is: its name, description, tool patterns, optional model, round cap and
 * instructions. The built-in `explore` agent (read-only tools) and custom agents read from
 * `.geekagent/agents/<name>.md` (project, only in a trusted folder) and `<userStateDir>/agents/<name>.md`
 * (the project's file of a name wins). A file that cannot be read is a load error naming the file
 * and line, never a crash.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../util/errors.js';
import { fromClaudeToolName } from '../util/tool-pattern.js';
import { type FrontmatterValue, parseFrontmatter } from './frontmatter.js';

export const DEFAULT_AGENT = 'explore';
export const DEFAULT_MAX_ROUNDS = 30;
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface AgentDefinition {
  name: string;
  description: string;
  /** Tool names and `*` patterns (`mcp_demo_*`); `readonly` in a built-in means the read-only set. */
  tools: readonly string[];
  model?: string;
  maxRounds: number;
  instructions: string;
  /** Where it came from: `built-in`, or the file. */
  source: string;
}

export interface LoadError {
  file: string;
  line?: number;
  message: string;
}

export interface AgentCatalog {
  agents: AgentDefinition[];
  errors: LoadError[];
}

/** The read-only tools the default agent gets (MCP tools marked readOnlyHint are added by the view). */
export const READ_ONLY_TOOLS = ['ls', 'read', 'glob', 'search', 'get_current_time', 'tool_search'];

export function builtinAgents(): AgentDefinition[] {
  return [
    {
      name: DEFAULT_AGENT,
      description: 'read-only research: looks through the project (and read-only MCP tools) and reports back',
      tools: [...READ_ONLY_TOOLS, '@readonly-mcp'],
      maxRounds: DEFAULT_MAX_ROUNDS,
      instructions:
        'Investigate with the read-only tools you have and answer the task precisely and briefly; ' +
        'quote file paths and lines you rely on. You cannot change files.',
      source: 'built-in',
    },
  ];
}

export interface AgentDirs {
  /** `<project>/.geekagent/agents`, or undefined when the folder is not trusted. */
  project?: string;
  /** `<userStateDir>/agents`. */
  user: string;
  /** Agent files of the run's plugins: after the person's own, before the project's. */
  plugins?: readonly string[];
}

/** Built-in agents, then user agents, then project agents (a later one of a name replaces an earlier one). */
export async function loadAgents(dirs: AgentDirs): Promise<AgentCatalog> {
  const byName = new Map<string, AgentDefinition>();
  const errors: LoadError[] = [];
  for (const agent of builtinAgents()) byName.set(agent.name, agent);
  const add = async (files: readonly string[], replace: boolean) => {
    for (const file of files) {
      const loaded = await loadAgentFile(file);
      if ('message' in loaded) errors.push(loaded);
      else if (replace || !byName.has(loaded.name)) byName.set(loaded.name, loaded);
    }
  };
  await add(await markdownFiles(dirs.user, errors), true);
  // A plugin's agent never replaces one of the person's (or the built-in) of the same name.
  await add(dirs.plugins ?? [], false);
  if (dirs.project) await add(await markdownFiles(dirs.project, errors), true);
  return { agents: [...byName.values()], errors };
}

async function markdownFiles(dir: string, errors: LoadError[]): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => path.join(dir, entry.name))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      errors.push({ file: dir, message: `cannot list agents: ${errorMessage(error)}` });
    return [];
  }
}

export async function loadAgentFile(file: string): Promise<AgentDefinition | LoadError> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { file, message: `cannot read: ${errorMessage(error)}` };
  }
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return { file, line: parsed.line, message: parsed.message };
  const fields = parsed.fields;
  const fallback = path.basename(file, '.md');
  const name = stringField(fields.name?.value) ?? fallback;
  const lineOf = (key: string) => fields[key]?.line;
  if (!NAME.test(name)) {
    return {
      file,
      line: lineOf('name'),
      message: `name "${name}" must be lowercase letters, digits, - or _ (at most 64)`,
    };
  }
  const description = stringField(fields.description?.value);
  if (!description) return { file, line: lineOf('description') ?? 1, message: 'a "description" is required' };
  const tools = listField(fields.tools?.value);
  if (tools === undefined)
    return { file, line: lineOf('tools') ?? 1, message: '"tools" must be a list of tool names or patterns' };
  let maxRounds = DEFAULT_MAX_ROUNDS;
  const rounds = fields.max_rounds?.value;
  if (rounds !== undefined) {
    const n = Number(rounds);
    if (!Number.isInteger(n) || n < 1 || n > 100)
      return {
        file,
        line: lineOf('max_rounds'),
        message: '"max_rounds" must be a whole number from 1 to 100',
      };
    maxRounds = n;
  }
  const model = stringField(fields.model?.value);
  return {
    name,
    description,
    tools,
    ...(model ? { model } : {}),
    maxRounds,
    instructions: parsed.body.trim(),
    source: file,
  };
}

function stringField(value: FrontmatterValue | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** No `tools` line: the default agent's read-only set. Claude Code's names (`Read`) read as ours. */
function listField(value: FrontmatterValue | undefined): string[] | undefined {
  if (value === undefined) return [...READ_ONLY_TOOLS, '@readonly-mcp'];
  // `tools: read, glob` is accepted too.
  const items = Array.isArray(value) ? value : value.split(',').map((item) => item.trim());
  return items.filter((item) => item !== '').map(fromClaudeToolName);
}
