/**
 * What the model is asked when a conversation is compacted: structured instructions (goals and
 * constraints, decisions, files touched, errors and fixes, open tasks) and the part to summarise
 * written out as a plain transcript, cut to fit the window (its middle goes first: the start
 * holds the goals, the end the current state).
 */
import type { Message } from '../providers/messages.js';
import { outputToText } from '../tools/types.js';

/** Characters of one tool result kept in the transcript: enough to remember what it said. */
const TOOL_RESULT_CHARS = 1_500;

export function summaryInstructions(focus: string | undefined): string {
  return [
    'You compact the conversation between a user and GeekAgent, a coding agent working in their project.',
    'Write a summary that lets the agent continue the work without the original messages. Use exactly these sections:',
    '## Goals and constraints — what the user wants, their requirements, preferences and instructions, in their words where it matters.',
    '## Decisions — what was decided and why.',
    '## Files touched — every file read, created or changed, and what changed.',
    '## Errors and fixes — errors met (exact messages) and how they were resolved.',
    '## Open tasks — what is still to do, and the next step.',
    'Keep names, paths, commands and numbers exact. Do not invent anything. Do not address the user. No preamble.',
    ...(focus ? [`The user asks the summary to focus on: ${focus}`] : []),
  ].join('\n');
}

/** The messages as a transcript of at most `maxChars` characters. */
export function transcriptText(messages: readonly Message[], maxChars: number): string {
  const blocks = messages.map(block);
  const full = blocks.join('\n\n');
  if (full.length <= maxChars) return full;
  const note = '\n\n[… part of the conversation omitted to fit …]\n\n';
  const half = Math.max(0, Math.floor((maxChars - note.length) / 2));
  return `${full.slice(0, half)}${note}${full.slice(full.length - half)}`;
}

function block(message: Message): string {
  switch (message.role) {
    case 'system':
      return `[Instructions]\n${message.text}`;
    case 'summary':
      return `[Summary of the conversation before this point]\n${message.text}`;
    case 'user':
      return `User: ${message.text}`;
    case 'assistant': {
      const calls = (message.toolCalls ?? []).map((call) => `Agent called ${call.name} ${call.arguments}`);
      return [message.text ? `Agent: ${message.text}` : '', ...calls]
        .filter((line) => line !== '')
        .join('\n');
    }
    case 'tool': {
      const text = outputToText(message.output);
      const shown =
        text.length > TOOL_RESULT_CHARS
          ? `${text.slice(0, TOOL_RESULT_CHARS)}… (${text.length} chars in total)`
          : text;
      return `Result of ${message.name}${message.isError ? ' (error)' : ''}: ${shown}`;
    }
  }
}
