/**
 * Skills named in text: `$<name>` in the person's message, and the skills whose `use_skill` call
 * succeeded in the history (their bodies are there already).
 */
import type { HistoryMessage } from '../agent/history.js';

/** The model's tool that loads a skill (the extension registers it). */
export const USE_SKILL = 'use_skill';

/**
 * The skills a message names as `$<name>`: the `$` at the start or after a space or an opening
 * bracket or quote, the name ending at anything but a name character (`$deploy,` counts,
 * `a$deploy` and `$deployment` do not name `deploy`).
 */
export function mentionedSkills(text: string): string[] {
  const names = [...text.matchAll(/(?<![^\s([{"'`])\$([a-z0-9][a-z0-9-]{0,63})(?![a-z0-9_-])/g)].map(
    (match) => match[1]!,
  );
  return [...new Set(names)];
}

/** Skills whose `use_skill` call succeeded in these messages: their bodies are in the history. */
export function loadedInHistory(messages: readonly HistoryMessage[]): Set<string> {
  const asked = new Map<string, string>();
  const loaded = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        if (call.name !== USE_SKILL) continue;
        try {
          const name = (JSON.parse(call.arguments) as { name?: unknown }).name;
          if (typeof name === 'string') asked.set(call.id, name);
        } catch {
          // Malformed arguments: that call loaded nothing.
        }
      }
    } else if (message.role === 'tool' && message.name === USE_SKILL && !message.isError) {
      const name = asked.get(message.callId);
      if (name !== undefined) loaded.add(name);
    }
  }
  return loaded;
}
