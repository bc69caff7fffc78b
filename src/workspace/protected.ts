/**
 * Protected paths: files whose change hands control of the agent itself to whoever writes them —
 * anything in a `.geekagent` folder (mcp.json starts commands, GeekAgent.json grants tools),
 * `.env` files (`.env`, `.env.*`, any folder), the user state folder (`~/.geekagent` or
 * $GEEKAGENT_HOME) and git's command-running files (`.git/config`, `.git/hooks/`, the same in
 * nested repositories, worktrees and bare gitdirs: util/git-files.ts) — git runs what they say,
 * unconfined, at the person's next `git status`. `write`/`patch` on them, and `run_shell` commands that mention them, are always
 * asked, even under `allow`; print mode refuses them unless `--allow-protected <path>` names them.
 */
import path from 'node:path';
import { isGitCommandFile } from '../util/git-files.js';
import { isInside, type PathSandbox, realpathOfExistingPrefix } from './root-sandbox.js';

/**
 * Knows the protected paths (`.geekagent/`, `.env`, the user state folder, git's config and hooks) and which of them
 * `--allow-protected` lets through. Answers are names as shown to a person; [] means none.
 */
export interface ProtectedPathGuard {
  /** One file given by its paths (as written, and real): its shown name if protected, else []. */
  check(paths: readonly string[]): string[];
  /** Protected names a command line mentions. */
  mentionedIn(text: string): string[];
}

export interface ProtectedPathsOptions {
  /** The project folder: `--allow-protected` paths are relative to it, and so are the names shown. */
  projectDir: string;
  userStateDir: string;
  /** `--allow-protected` values, as given. */
  allowed?: readonly string[];
}

const STATE_DIR = '.geekagent';

/** Words in a shell command that name protected files; the first group is what is shown. */
const SHELL_MENTIONS: readonly RegExp[] = [
  /(\.geekagent)/gi,
  /(geekagent\.json)/gi,
  /(mcp\.json)/gi,
  /(GEEKAGENT_HOME)/g,
  // `.env`, `./.env`, `.env.local` — not `process.env` or `foo.env`.
  /(?:^|[^\w.-])(\.env(?:\.[\w.-]+)?)(?![\w-])/gi,
];

export class ProtectedPaths implements ProtectedPathGuard {
  private readonly projectDir: string;
  private readonly userStateDir: string;
  private readonly allowedPaths: Set<string>;
  private readonly allowedWords: Set<string>;

  constructor(options: ProtectedPathsOptions) {
    this.projectDir = path.resolve(options.projectDir);
    this.userStateDir = path.resolve(options.userStateDir);
    const allowed = options.allowed ?? [];
    this.allowedPaths = new Set(allowed.map((given) => path.resolve(this.projectDir, given)));
    this.allowedWords = new Set(allowed);
  }

  isProtected(absolute: string): boolean {
    if (isInside(this.userStateDir, absolute)) return true;
    // Lower-cased: on a case-insensitive disk `.GeekAgent` is the same folder.
    const parts = absolute.toLowerCase().split(path.sep);
    const name = parts[parts.length - 1] ?? '';
    if (parts.includes(STATE_DIR) || name === '.env' || name.startsWith('.env.')) return true;
    return isGitCommandFile(absolute);
  }

  check(paths: readonly string[]): string[] {
    const hit = paths.find((candidate) => this.isProtected(candidate));
    if (hit === undefined) return [];
    if (paths.some((candidate) => this.allowedPaths.has(candidate))) return [];
    return [this.display(hit)];
  }

  mentionedIn(text: string): string[] {
    const found = new Set<string>();
    for (const pattern of SHELL_MENTIONS) {
      for (const match of text.matchAll(pattern)) found.add(match[1]!);
    }
    if (text.includes(this.userStateDir)) found.add(this.userStateDir);
    return [...found].filter((word) => !this.allowedWords.has(word));
  }

  /** Relative to the project folder when inside it (what `--allow-protected` expects), else absolute. */
  display(absolute: string): string {
    return isInside(this.projectDir, absolute) ? path.relative(this.projectDir, absolute) || '.' : absolute;
  }
}

/** What of a tool call's context the check reads (a ToolContext has both). */
export interface FileToolScope {
  sandbox: PathSandbox;
  protectedPaths?: ProtectedPathGuard;
}

/**
 * For file tools: the protected paths a change to `requested` would touch, judged on the path as
 * written and on where it really leads (an in-root link into `.geekagent` counts).
 */
export async function protectedFileTargets(ctx: FileToolScope, requested: unknown): Promise<string[]> {
  const guard = ctx.protectedPaths;
  if (!guard || typeof requested !== 'string') return [];
  const absolute = await resolveQuietly(ctx.sandbox, requested);
  if (absolute === undefined) return [];
  const real = await realpathOfExistingPrefix(absolute).catch(() => absolute);
  return guard.check([absolute, real]);
}

/** A path the sandbox refuses is not protected here: the tool itself reports the refusal. */
async function resolveQuietly(sandbox: PathSandbox, requested: string): Promise<string | undefined> {
  try {
    return await sandbox.resolve(requested);
  } catch {
    return undefined;
  }
}
