/**
 * write and patch: the two tools that change files. Both compute the new text first (so the
 * approval prompt can show the exact diff), record undo, and only then touch the disk — through
 * workspace/root-files.ts: regular files only, atomic (temp + rename, mode kept), never through
 * a link or a second hard link. Protected paths (.geekagent/, .env) are always asked.
 */

import * as z from '../../util/schema.js';
import { protectedFileTargets } from '../../workspace/protected.js';
import { type FileLabel, openInRoot, resolveWriteTarget, writeInRoot } from '../../workspace/root-files.js';
import { toolArguments } from '../arguments.js';
import { type ApprovalPrompt, type Tool, type ToolContext, ToolError } from '../types.js';

export const DIFF_LINE_LIMIT = 200;
/** jsdiff is quadratic in the worst case; past this the prompt says the sizes instead. */
const DIFF_TIMEOUT_MS = 2000;

export interface Hunk {
  old: string;
  new: string;
}

/** A change ready to be shown and applied: where, what was there, what will be. */
interface PlannedEdit {
  label: FileLabel;
  /** The real path written (an in-root link is followed to its target). */
  target: string;
  /** The same file spelled from the root: what undo records. */
  canonical: string;
  shown: string;
  previous: string | null;
  next: string;
}

const writeArgs = toolArguments('write', () =>
  z.object({
    path: z.string().check(z.describe('File path relative to the project root.')),
    content: z.string().check(z.describe('The complete new content of the file.')),
  }),
);

const patchArgs = toolArguments('patch', () =>
  z.object({
    path: z.string().check(z.describe('File path relative to the project root; the file must exist.')),
    hunks: z
      .array(
        z.object({
          old: z
            .string()
            .check(
              z.describe(
                'Exact text to replace; must occur exactly once. Include surrounding lines to make it unique.',
              ),
            ),
          new: z.string().check(z.describe('Replacement text (may be empty to delete).')),
        }),
      )
      .check(z.minLength(1), z.describe('Replacements, applied in order to the evolving text.')),
  }),
);

export function createWriteTool(): Tool {
  return {
    name: 'write',
    description:
      'Creates or overwrites a text file inside the project with the given content; missing parent folders are ' +
      'created. Returns the number of characters written. For small changes to an existing file prefer patch.',
    get parameters() {
      return writeArgs.parameters;
    },
    protectedTargets: (args, ctx) => protectedFileTargets(ctx, args.path),
    async describeApproval(args, ctx) {
      const edit = await planWrite(args, ctx);
      const verb = edit.previous === null ? 'create' : 'write';
      return diffPrompt(`About to ${verb} ${edit.shown}`, edit);
    },
    async run(args, ctx) {
      const edit = await planWrite(args, ctx);
      await apply(edit, ctx);
      return edit.previous === null
        ? `created ${edit.shown} (${edit.next.length} chars)`
        : `wrote ${edit.shown} (${edit.next.length} chars, was ${edit.previous.length})`;
    },
  };
}

export function createPatchTool(): Tool {
  return {
    name: 'patch',
    description:
      'Edits an existing text file by replacing exact text. Each hunk\'s "old" must occur exactly once in the file ' +
      '(whitespace included) and is replaced by its "new"; hunks apply in order. Nothing is written unless every ' +
      'hunk applies. Read the file first so "old" is copied exactly.',
    get parameters() {
      return patchArgs.parameters;
    },
    protectedTargets: (args, ctx) => protectedFileTargets(ctx, args.path),
    async describeApproval(args, ctx) {
      const edit = await planPatch(args, ctx);
      return diffPrompt(`About to patch ${edit.shown}`, edit);
    },
    async run(args, ctx) {
      const hunkCount = patchArgs.parse(args).hunks.length;
      const edit = await planPatch(args, ctx);
      await apply(edit, ctx);
      return `patched ${edit.shown} (${hunkCount} ${hunkCount === 1 ? 'hunk' : 'hunks'})`;
    },
  };
}

async function planWrite(args: Record<string, unknown>, ctx: ToolContext): Promise<PlannedEdit> {
  const { path: requested, content } = writeArgs.parse(args);
  return plan({ tool: 'write', requested }, ctx, () => content);
}

async function planPatch(args: Record<string, unknown>, ctx: ToolContext): Promise<PlannedEdit> {
  const { path: requested, hunks } = patchArgs.parse(args);
  checkHunks(hunks);
  return plan({ tool: 'patch', requested }, ctx, (previous, shown) => {
    if (previous === null) throw new ToolError(`patch: no such file: ${requested}; use write to create it`);
    if (previous.slice(0, 8192).includes('\0')) throw new ToolError(`patch: ${requested} is a binary file`);
    return applyHunks(previous, hunks, shown);
  });
}

async function plan(
  label: FileLabel,
  ctx: ToolContext,
  next: (previous: string | null, shown: string) => string,
): Promise<PlannedEdit> {
  const absolute = await ctx.sandbox.resolve(label.requested);
  const { real, canonical } = await resolveWriteTarget(ctx.sandbox, absolute, label);
  const shown = ctx.sandbox.display(absolute);
  const previous = await readExisting(ctx, absolute, label);
  return { label, target: real, canonical, shown, previous, next: next(previous, shown) };
}

/** The schema checked the shapes; an empty "old" would match everywhere and nowhere. */
function checkHunks(hunks: readonly Hunk[]): void {
  hunks.forEach((hunk, index) => {
    if (hunk.old === '') {
      throw new ToolError(`patch: hunk ${index + 1} has an empty "old"; give the exact text to replace`);
    }
  });
}

/** Applies every hunk to the evolving text, or throws before anything is written. */
export function applyHunks(text: string, hunks: Hunk[], shown: string): string {
  let current = text;
  hunks.forEach((hunk, index) => {
    const crlf = current.includes('\r\n') && !hunk.old.includes('\r');
    let { old, new: replacement } = hunk;
    let positions = occurrences(current, old);
    if (positions.length === 0 && crlf) {
      // Models send \n; a CRLF file would never match. Retry in the file's own line endings.
      old = old.replaceAll('\n', '\r\n');
      replacement = replacement.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n');
      positions = occurrences(current, old);
    }
    const number = index + 1;
    if (positions.length === 0) {
      throw new ToolError(
        `patch: hunk ${number} not found in ${shown}: the old text must match the file exactly (whitespace included); read the file and try again`,
      );
    }
    if (positions.length > 1) {
      throw new ToolError(
        `patch: hunk ${number} matches ${positions.length} times in ${shown}; add surrounding lines so it matches exactly once`,
      );
    }
    const at = positions[0]!;
    // Slicing, not String.replace: `$&` and friends in the new text must stay literal.
    current = current.slice(0, at) + replacement + current.slice(at + old.length);
  });
  return current;
}

/** Start offsets of `needle`, overlapping ones included: "aa" in "aaa" is ambiguous, so it counts twice. */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found.push(at);
  return found;
}

async function readExisting(ctx: ToolContext, absolute: string, label: FileLabel): Promise<string | null> {
  const opened = await openInRoot(ctx.sandbox, absolute, label);
  if (opened.kind === 'missing') return null;
  if (opened.kind === 'directory') throw new ToolError(`${label.tool}: ${label.requested} is a directory`);
  try {
    // Checked on disk first (inside the root, regular, one link); the text is the editor's when it has one.
    if (ctx.fileAccess) return await ctx.fileAccess.readText(opened.real, ctx.signal);
    return await opened.handle.readFile('utf8');
  } finally {
    await opened.handle.close();
  }
}

async function apply(edit: PlannedEdit, ctx: ToolContext): Promise<void> {
  // Last point where a cancel can still leave the file untouched.
  if (ctx.signal.aborted) throw new ToolError(`${edit.label.tool}: cancelled`);
  // A link swapped since the approval may now lead into a protected path nobody approved.
  const protectedNow = ctx.protectedPaths?.check([edit.canonical, edit.target]) ?? [];
  if (protectedNow.some((shown) => !ctx.approvedProtected?.includes(shown)))
    throw new ToolError(`${edit.label.tool}: ${edit.label.requested} now leads to a protected path; refused`);
  // Undo first: if recording fails, the file must not change.
  await ctx.undo.record(edit.canonical, edit.previous, edit.next);
  if (ctx.fileAccess) await ctx.fileAccess.writeText(edit.target, edit.next, ctx.signal);
  else await writeInRoot(ctx.sandbox, edit.target, edit.next, edit.label);
}

async function diffPrompt(title: string, edit: PlannedEdit): Promise<ApprovalPrompt> {
  return { title, detail: await renderDiff(edit), kind: 'diff' };
}

async function renderDiff(edit: PlannedEdit): Promise<string> {
  // Loaded with the first prompt that shows a diff: these tools are defined at every start.
  const { createTwoFilesPatch } = await import('diff');
  const oldName = edit.previous === null ? '/dev/null' : `a/${edit.shown}`;
  const diff = createTwoFilesPatch(
    oldName,
    `b/${edit.shown}`,
    edit.previous ?? '',
    edit.next,
    undefined,
    undefined,
    {
      context: 3,
      timeout: DIFF_TIMEOUT_MS,
    },
  );
  if (diff === undefined) {
    return `(diff too large to show: ${edit.previous?.length ?? 0} chars before, ${edit.next.length} chars after)`;
  }
  const lines = diff.split('\n');
  if (lines[0]?.startsWith('=')) lines.shift();
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length <= 2) lines.push('(no changes)');
  if (lines.length <= DIFF_LINE_LIMIT) return lines.join('\n');
  return [...lines.slice(0, DIFF_LINE_LIMIT), '(diff truncated)'].join('\n');
}
