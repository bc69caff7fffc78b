/**
 * Which git settings run a command (the person's git runs them later, outside the sandbox), and
 * reading and editing a config file with git's own parser — a parser of our own that disagreed
 * with git's (continuations, quoting, `[section "sub"]` spellings) would let a setting through.
 * Git runs here with no system or global config and from `/`, so no repository's settings apply.
 */
import { spawnSync } from 'node:child_process';

/** Keys (section and name folded to lower case, as git prints them) whose value git runs. */
const DANGEROUS_KEYS: readonly RegExp[] = [
  /^core\.(fsmonitor|hookspath|sshcommand|pager|editor|askpass|gitproxy|alternaterefscommand|virtualfilesystem)$/,
  /^(sequence\.editor|diff\.external|interactive\.difffilter|web\.browser|imap\.tunnel)$/,
  /^(gpg(\..+)?\.program|credential(\..+)?\.helper|protocol(\..+)?\.allow|uploadpack\.packobjectshook)$/,
  // Another file pulled in, with whatever it says.
  /^include\.path$/,
  /^includeif\..+\.path$/,
  // Drivers: filter.X.clean/smudge/process, diff.X.command/textconv, merge.X.driver.
  /^filter\./,
  /^diff\..+\.(command|textconv)$/,
  /^merge\..+\.driver$/,
  // `git log` through pager.log; an alias runs `!shell` or any git command with `-c` settings.
  /^pager\./,
  /^alias\./,
  /^(difftool|mergetool|browser|man|guitool|trailer)\..+\.(cmd|command|path)$/,
  /^remote\..+\.(uploadpack|receivepack)$/,
  /^submodule\..+\.update$/,
  /^hook\./,
  /^(sendemail|instaweb)\./,
  /^lfs\.(customtransfer|extension)\./,
];

export function isDangerousKey(key: string): boolean {
  const folded = key.toLowerCase();
  return DANGEROUS_KEYS.some((pattern) => pattern.test(folded));
}

/** One `key = value` of a config file; `value` is undefined for a bare `key`. */
export interface ConfigEntry {
  key: string;
  value: string | undefined;
}

/** Git with nothing of its own configuration, run from `/` (no repository around it). */
function git(
  args: readonly string[],
  input?: Buffer,
): { status: number | null; ok: boolean; stdout: string } {
  const result = spawnSync('git', [...args], {
    cwd: '/',
    input,
    encoding: 'utf8',
    maxBuffer: 4 * 1024 * 1024,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: '/nonexistent',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CEILING_DIRECTORIES: '/',
      LC_ALL: 'C',
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  return { status: result.status, ok: result.status === 0, stdout: result.stdout ?? '' };
}

/** The entries of a config file's text as git reads it; undefined: git cannot (absent, or a bad file). */
export function configEntries(content: Buffer): ConfigEntry[] | undefined {
  if (content.length === 0) return [];
  const listed = git(['config', '--file', '-', '--list', '--null'], content);
  if (!listed.ok) return undefined;
  return listed.stdout
    .split('\0')
    .filter((item) => item !== '')
    .map((item) => {
      const cut = item.indexOf('\n');
      return cut < 0
        ? { key: item, value: undefined }
        : { key: item.slice(0, cut), value: item.slice(cut + 1) };
    });
}

/** The dangerous entries of `after` that `before` did not have (same key and value). */
export function addedDangerous(before: readonly ConfigEntry[], after: readonly ConfigEntry[]): ConfigEntry[] {
  const had = new Set(before.filter((e) => isDangerousKey(e.key)).map(entryId));
  return after.filter((e) => isDangerousKey(e.key) && !had.has(entryId(e)));
}

/**
 * Removes every value of the keys of `added` from `file` with git, then puts back the values
 * those keys had before: what the person had stays, what the command added goes.
 */
export function removeFromConfig(
  file: string,
  added: readonly ConfigEntry[],
  before: readonly ConfigEntry[],
): boolean {
  const keys = [...new Set(added.map((e) => e.key))];
  for (const key of keys) {
    // Exit 5: nothing to unset (already gone).
    const unset = git(['config', '--file', file, '--unset-all', key]);
    if (unset.status !== 0 && unset.status !== 5) return false;
    // Git prints section and name folded, the subsection as written: the same key is the same text.
    for (const kept of before.filter((e) => e.key === key)) {
      if (kept.value === undefined) continue;
      if (!git(['config', '--file', file, '--add', kept.key, kept.value]).ok) return false;
    }
  }
  return true;
}

function entryId(entry: ConfigEntry): string {
  return `${entry.key}\0${entry.value ?? '\u0001'}`;
}
