/**
 * The one-line progress form of a tool call, `[Calling tool NAME → RESULT]`, shared by every face.
 * The name and result are untrusted (a server's tool, a file's bytes): whitespace is flattened,
 * then the remaining control characters are made visible (`^[`), then the line is cut.
 */
import { visible, visibleLine } from '../util/terminal-text.js';
import { outputToText, type ToolOutput } from './types.js';

/** `text` on one line, safe for a terminal, at most `maxChars` long. */
export function oneLine(text: string, maxChars: number): string {
  const flat = visible(text.replace(/\s+/g, ' ').trim());
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
}

export function formatToolLine(name: string, output: ToolOutput, maxChars = 160): string {
  return `[Calling tool ${visibleLine(name)} → ${oneLine(outputToText(output), maxChars)}]`;
}
