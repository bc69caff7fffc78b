/** The one-line progress form of a tool call, `[Calling tool NAME → RESULT]`, shared by every face. */
import { outputToText, type ToolOutput } from './types.js';

export function oneLine(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
}

export function formatToolLine(name: string, output: ToolOutput, maxChars = 160): string {
  return `[Calling tool ${name} → ${oneLine(outputToText(output), maxChars)}]`;
}
