/**
 * The diff an editor shows for a `write` or `patch`: the file's text when the call started and
 * after it ended, read the way the tools read it (inside the root, regular files only; through
 * the editor's buffers when it offers them). Any problem means no diff, never a failed call.
 */
import type { App } from '../app/create-app.js';
import type { FileAccess, ToolCallOutcome } from '../tools/types.js';
import { openInRoot, resolveWriteTarget } from '../workspace/root-files.js';
import { parseArguments } from './updates.js';

/** Larger files are not sent as a diff (the editor has them anyway). */
const DIFF_MAX_BYTES = 1024 * 1024;
const READ_TIMEOUT_MS = 5000;

interface Snapshot {
  real: string;
  requested: string;
  text: string | null;
}

export interface FileDiff {
  path: string;
  oldText: string | null;
  newText: string;
}

export class EditTracker {
  private readonly before = new Map<string, Promise<Snapshot | undefined>>();

  constructor(
    private readonly app: Pick<App, 'sandbox'>,
    private readonly files: FileAccess | undefined,
  ) {}

  start(callId: string, name: string, rawArguments: string): void {
    if (name !== 'write' && name !== 'patch') return;
    const args = parseArguments(rawArguments);
    if (typeof args !== 'object' || typeof args.path !== 'string') return;
    this.before.set(callId, this.read(args.path));
  }

  async end(callId: string, outcome: ToolCallOutcome): Promise<FileDiff | undefined> {
    const before = this.before.get(callId);
    this.before.delete(callId);
    if (!before || outcome.isError) return undefined;
    const old = await before;
    if (!old) return undefined;
    const now = await this.read(old.requested);
    if (now?.text == null) return undefined;
    return { path: old.real, oldText: old.text, newText: now.text };
  }

  private async read(requested: string): Promise<Snapshot | undefined> {
    const sandbox = this.app.sandbox;
    const label = { tool: 'diff', requested };
    try {
      const absolute = await sandbox.resolve(requested);
      const { real } = await resolveWriteTarget(sandbox, absolute, label);
      const opened = await openInRoot(sandbox, absolute, label);
      if (opened.kind === 'missing') {
        // A new file the editor may already hold: its buffer, else nothing.
        const text = this.files
          ? await this.files.readText(real, AbortSignal.timeout(READ_TIMEOUT_MS)).catch(() => null)
          : null;
        return { real, requested, text };
      }
      if (opened.kind === 'directory') return undefined;
      try {
        if (opened.stats.size > DIFF_MAX_BYTES) return undefined;
        const text = this.files
          ? await this.files.readText(opened.real, AbortSignal.timeout(READ_TIMEOUT_MS))
          : await opened.handle.readFile('utf8');
        return { real: opened.real, requested, text };
      } finally {
        await opened.handle.close();
      }
    } catch {
      return undefined;
    }
  }
}
