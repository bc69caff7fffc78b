/**
 * Secret redaction: values of env vars named like KEY/TOKEN/SECRET/PASSWORD become
 * `[REDACTED:NAME]` in anything shown to the model or a person (tool output, errors, prompts).
 */

export type Redactor = (text: string) => string;

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;
/** Shorter values ("1", "true") occur everywhere: replacing them would wreck output, not hide secrets. */
const MIN_SECRET_LENGTH = 6;

export function createRedactor(env: NodeJS.ProcessEnv): Redactor {
  const nameByValue = new Map<string, string>();
  // Sorted names: when two variables hold the same value, the label does not depend on env order.
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (!SECRET_NAME.test(name) || value === undefined || value.length < MIN_SECRET_LENGTH) continue;
    if (!nameByValue.has(value)) nameByValue.set(value, name);
  }
  if (nameByValue.size === 0) return (text) => text;

  // Longest first: alternation takes the first branch that matches, so a value containing another
  // is replaced whole. One combined regex: a text without secrets costs a single scan.
  const values = [...nameByValue.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const matcher = new RegExp(values.map(escapeRegExp).join('|'), 'g');
  return (text) => text.replace(matcher, (value) => `[REDACTED:${nameByValue.get(value) ?? '?'}]`);
}

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
