/**
 * System prompt assembly: the agent's own instructions, then the sections extensions contribute
 * for this turn in their order (project instructions, the active skill, recalled memories …).
 * Rebuilt for every turn and never part of the history, so compaction cannot summarise it away.
 */
import type { PromptSection } from './hooks.js';

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

export function buildSystemPrompt(context: PromptContext, sections: readonly PromptSection[]): string {
  const ordered = [...sections].sort((a, b) => a.order - b.order).map((section) => section.text);
  return [agentInstructions(context), ...ordered].join('\n\n');
}
