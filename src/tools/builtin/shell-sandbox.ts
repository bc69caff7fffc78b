/**
 * run_shell and the command sandbox: which calls run unasked (confined, `autoAllow`), which are
 * always asked (`sandbox: false`, unless the user's `allowUnconfined` names the command), and
 * running one confined — the wrapped line, the release, and the notes when the sandbox refused or
 * the command left behind what runs outside it later (undone: sandbox/leftovers.ts).
 */
import { randomUUID } from 'node:crypto';
import { commandPatternAllows, type SandboxWrapOptions } from '../../sandbox/index.js';
import { protectedFileTargets } from '../../workspace/protected.js';
import { type CallReview, type ToolContext, ToolError } from '../types.js';

export const REASON_LIMIT = 300;

/** run_shell's arguments once its schema checked them (shell.ts declares it). */
export interface ShellArgs {
  command: string;
  sandbox?: boolean | undefined;
  reason?: string | undefined;
}

/** `sandbox: false` as sent; anything else (absent, null, true) keeps the command confined. */
export function wantsUnconfined(args: Pick<ShellArgs, 'sandbox'>): boolean {
  return args.sandbox === false;
}

export function reasonOf(args: Pick<ShellArgs, 'reason'>): string {
  const reason = args.reason?.trim() ?? '';
  if (reason === '') return '(the model gave no reason)';
  return reason.length > REASON_LIMIT ? `${reason.slice(0, REASON_LIMIT)}…` : reason;
}

/** The run confines commands (after starting the library: a failed start is not confined). */
async function confining(ctx: ToolContext): Promise<boolean> {
  const sandbox = ctx.commandSandbox;
  if (!sandbox) return false;
  return (await sandbox.ready()).kind === 'confined';
}

/**
 * The user's `allowUnconfined` lets this command leave the sandbox without a question: a `*` never
 * stands for a chained command, and a redirection it stands for must stay in the root, off the
 * protected paths (`/dev/null` is fine).
 */
async function unconfinedAllowed(command: string, ctx: ToolContext): Promise<boolean> {
  const patterns = ctx.sandboxPolicy?.allowUnconfined ?? [];
  if (patterns.length === 0) return false;
  return commandPatternAllows(patterns, command, async (target) => {
    if (target === '/dev/null') return true;
    try {
      await ctx.sandbox.resolve(target);
    } catch {
      return false;
    }
    return (await protectedFileTargets(ctx, target)).length === 0;
  });
}

export async function runsUnasked(args: ShellArgs, ctx: ToolContext): Promise<boolean> {
  if (wantsUnconfined(args)) return (await confining(ctx)) && (await unconfinedAllowed(args.command, ctx));
  return (ctx.sandboxPolicy?.autoAllow ?? false) && (await confining(ctx));
}

export async function unconfinedReview(args: ShellArgs, ctx: ToolContext): Promise<CallReview | undefined> {
  if (!wantsUnconfined(args) || !(await confining(ctx))) return undefined;
  if (await unconfinedAllowed(args.command, ctx)) return undefined;
  return {
    reason: `Runs OUTSIDE the sandbox (full access to your files, credentials and network). The model's reason: ${reasonOf(args)}`,
    refusal:
      'run_shell with "sandbox": false was refused: running a command outside the sandbox needs a person\'s ' +
      'approval, and nobody can be asked here. Run it confined, or the person adds the command to ' +
      '"sandbox.allowUnconfined" in their own GeekAgent.json.',
  };
}

export interface ConfinedRun {
  /** The line to give `/bin/sh -c`. */
  line: string;
  /** Call with the command's stderr once it ended: the note for the model, if the sandbox refused. */
  finish(stderr: string): string | undefined;
}

/** Undefined: run the command as it is (the sandbox is off, unavailable, or `sandbox: false`). */
export async function confine(
  command: string,
  args: Pick<ShellArgs, 'sandbox'>,
  ctx: ToolContext,
  extra: Pick<SandboxWrapOptions, 'allowRead'> = {},
): Promise<ConfinedRun | undefined> {
  const sandbox = ctx.commandSandbox;
  if (!sandbox || wantsUnconfined(args)) return undefined;
  const status = await sandbox.ready();
  if (status.kind !== 'confined') return undefined;
  // Unique per run: the library attributes violations by it (a call id may repeat across turns).
  const id = `${ctx.callId ?? 'run_shell'}:${randomUUID()}`;
  let line: string;
  try {
    line = await sandbox.wrap(command, { ...extra, id, cwd: ctx.sandbox.root, checkLeftovers: true });
  } catch (error) {
    throw new ToolError(
      `run_shell: the sandbox could not confine the command, so it did not run: ${(error as Error).message}`,
    );
  }
  return {
    line,
    finish(stderr) {
      let refused: string | undefined;
      try {
        refused = sandbox.explainFailure(id, stderr);
      } finally {
        sandbox.release(id);
      }
      // After the release: the mount points bubblewrap made for absent denied paths are gone.
      const undone = sandbox.leftovers(id);
      return [refused, undone].filter((note) => note !== undefined).join('\n') || undefined;
    },
  };
}
