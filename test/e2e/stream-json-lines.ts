/**
 * stream-json as a test reads it: the input line a program writes for a user message, and the
 * output lines parsed (every stdout line one JSON object), shared by the e2e files that drive
 * `--output-format stream-json`.
 */
import { expect } from 'vitest';
import type { RunResult } from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: lines of many shapes, checked field by field
export type Line = Record<string, any>;

/** A `user` input line with this content (text, or content blocks). */
export const userLine = (content: unknown) =>
  `${JSON.stringify({ type: 'user', message: { role: 'user', content } })}\n`;

/** Every stdout line parsed; fails on a line that is not one JSON object. */
export function linesOf(run: Pick<RunResult, 'stdout' | 'stderr'>): Line[] {
  expect(run.stdout.endsWith('\n'), run.stderr).toBe(true);
  return run.stdout
    .slice(0, -1)
    .split('\n')
    .map((text) => {
      try {
        const value = JSON.parse(text) as unknown;
        expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
        return value as Line;
      } catch {
        throw new Error(`not a JSON line: ${text.slice(0, 200)}\nstderr: ${run.stderr}`);
      }
    });
}

/** The `tool_result` blocks of the run's `user` lines, in order. */
export function toolResultsOf(lines: Line[]): Line[] {
  return lines
    .filter((line) => line.type === 'user')
    .flatMap((line) => line.message.content as Line[])
    .filter((block) => block.type === 'tool_result');
}
