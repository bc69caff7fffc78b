/**
 * System prompt assembly: the agent's own instructions, then the `system` sections extensions
 * contribute in their order (project instructions, the skills, the deferred tools' names); and the
 * turn context: the `turn` sections (recalled memories, the todo list), sent in the turn's user
 * message. The system prompt is rebuilt for every turn and never part of the history, so compaction
 * cannot summarise it away; what goes in it must not change from turn to turn (its date is the
 * session's), or the provider's prompt cache is lost for the whole history.
 */
import type { PromptSection } from './turn-points.js';

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
  const ordered = inOrder(sections.filter((section) => (section.placement ?? 'system') === 'system'));
  return [agentInstructions(context), ...ordered].join('\n\n');
}

export const TURN_CONTEXT_OPEN =
  '<turn-context note="added by GeekAgent for this turn; not the user\'s words">';
export const TURN_CONTEXT_CLOSE = '</turn-context>';

/**
 * The turn's context for its user message (sent before the person's words): the `turn` sections
 * in order, framed so the model can tell them from the message; undefined when there are none.
 */
export function buildTurnContext(sections: readonly PromptSection[]): string | undefined {
  const ordered = inOrder(sections.filter((section) => section.placement === 'turn'));
  return ordered.length > 0 ? [TURN_CONTEXT_OPEN, ...ordered, TURN_CONTEXT_CLOSE].join('\n\n') : undefined;
}

function inOrder(sections: readonly PromptSection[]): string[] {
  return [...sections].sort((a, b) => a.order - b.order).map((section) => section.text);
}
