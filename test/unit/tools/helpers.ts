/** Shared fixtures for the built-in tool tests: a temp root, a real sandbox and a recording undo. */
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Tool, ToolContext, UndoRecorder } from '../../../src/tools/types.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';

export interface UndoEntry {
  path: string;
  previous: string | null;
  /** What the file held when record() was called: proves undo is recorded before the write. */
  onDisk: string | null;
}

export class RecordingUndo implements UndoRecorder {
  readonly entries: UndoEntry[] = [];
  failWith: Error | null = null;

  async record(absolutePath: string, previous: string | null): Promise<void> {
    if (this.failWith) throw this.failWith;
    const onDisk = await readFile(absolutePath, 'utf8').catch(() => null);
    this.entries.push({ path: absolutePath, previous, onDisk });
  }
}

/** A fresh temp folder, realpath'd so it compares equal to what `pwd` prints. */
export async function makeRoot(): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-tools-')));
}

export async function removeRoot(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}

export function makeContext(
  root: string,
  options: { signal?: AbortSignal; env?: NodeJS.ProcessEnv } = {},
): { ctx: ToolContext; undo: RecordingUndo } {
  const undo = new RecordingUndo();
  const ctx: ToolContext = {
    signal: options.signal ?? new AbortController().signal,
    sandbox: new RootSandbox(root),
    undo,
    env: options.env ?? process.env,
  };
  return { ctx, undo };
}

/** run() narrowed to text: every built-in tool returns a string. */
export async function runText(tool: Tool, args: Record<string, unknown>, ctx: ToolContext): Promise<string> {
  const output = await tool.run(args, ctx);
  if (typeof output !== 'string') throw new Error(`${tool.name} returned parts, expected text`);
  return output;
}

/** Polls `condition` until it holds or the deadline passes; the wait is on the condition, not a guess. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
