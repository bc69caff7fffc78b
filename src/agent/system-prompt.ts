/**
 * System prompt assembly, in the spec's order: agent instructions, project instructions
 * (AGENTS.md), the active skill's instructions, then memories recalled for this turn. Each later
 * slot is a source function so skills and memory plug in without touching the loop.
 */

export interface PromptSources {
  /** Contents of AGENTS.md at the root, or undefined when there is none. */
  projectInstructions?: () => string | undefined;
  activeSkill?: () => { name: string; instructions: string } | undefined;
  recallMemories?: (userInput: string) => string[] | undefined;
}

export interface PromptContext {
  root: string;
  now: Date;
}

export function agentInstructions(context: PromptContext): string {
  return [
    "You are GeekAgent, an AI agent working in a terminal on the user's project.",
    `The project root is ${context.root}; file tools take paths relative to it and cannot leave it.`,
    `Today is ${context.now.toISOString().slice(0, 10)}.`,
    'Use the tools to inspect and change the project instead of guessing. Prefer patch over rewriting whole files.',
    'Some tools ask the user for approval; if a call is refused or denied, do not retry it unchanged — say what you wanted to do.',
    'Tools named mcp_<server>_<tool> come from external MCP servers the user configured.',
    'Answer concisely.',
  ].join('\n');
}

export function buildSystemPrompt(sources: PromptSources, context: PromptContext, userInput: string): string {
  const sections = [agentInstructions(context)];
  const project = sources.projectInstructions?.();
  sections.push(
    project ? `Project instructions (AGENTS.md):\n${project}` : 'Project instructions (AGENTS.md): none',
  );
  const skill = sources.activeSkill?.();
  if (skill) sections.push(`Active skill: ${skill.name}\n${skill.instructions}`);
  const memories = sources.recallMemories?.(userInput);
  if (memories && memories.length > 0) {
    sections.push(`Relevant memories:\n${memories.map((m) => `- ${m}`).join('\n')}`);
  }
  return sections.join('\n\n');
}
