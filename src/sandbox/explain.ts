/**
 * Turns the stderr of a confined command into a note for the model when the sandbox stopped it:
 * the library's recorded violations (proxy refusals, seccomp), else the usual error texts of a
 * refused write, a hidden path or a missing network — naming the path or host where it can.
 */

export interface ExplainContext {
  mode: 'workspace-write' | 'read-only';
  root: string;
  denyRead: readonly string[];
  allowHosts: readonly string[];
}

const WRITE_REFUSED = /(Read-only file system|EROFS)/;
const NETWORK_REFUSED =
  /(Network is unreachable|ENETUNREACH|Could not resolve host|Temporary failure in name resolution|EAI_AGAIN|blocked-by-sandbox|Connection refused|ECONNREFUSED)/;

export function explainStderr(
  stderr: string,
  annotated: string,
  context: ExplainContext,
): string | undefined {
  const refused: string[] = [];
  const violations = /<sandbox_violations>([\s\S]*?)<\/sandbox_violations>/.exec(annotated);
  if (violations) {
    for (const line of violations[1]!.split('\n').map((text) => text.trim())) if (line) refused.push(line);
  }
  for (const target of writeTargets(stderr)) refused.push(`write to ${target}`);
  for (const hidden of context.denyRead) {
    if (stderr.includes(hidden)) refused.push(`read of ${hidden} (hidden)`);
  }
  if (refused.length === 0 && NETWORK_REFUSED.test(stderr)) {
    refused.push(
      context.allowHosts.length === 0
        ? 'network (no host is allowed)'
        : `network (only ${context.allowHosts.join(', ')} allowed)`,
    );
  }
  if (refused.length === 0) return undefined;
  const rules =
    context.mode === 'read-only'
      ? 'nothing may be written'
      : `writes only under ${context.root} and the private temp folder`;
  return (
    `[sandbox] this command ran confined (${context.mode}: ${rules}; credentials such as ~/.ssh hidden; ` +
    `network only to allowed hosts) and the sandbox refused: ${unique(refused).join('; ')}. ` +
    'If the task really needs it, call run_shell again with "sandbox": false and a "reason": the person is asked.'
  );
}

/** The paths in "…: '<path>': Read-only file system" and "cannot create <path>: Read-only…". */
function writeTargets(stderr: string): string[] {
  const found: string[] = [];
  for (const line of stderr.split('\n')) {
    if (!WRITE_REFUSED.test(line)) continue;
    // ‘ and ’ as escapes: one non-ASCII character makes the whole core bundle a two-byte string
    // for V8 (twice the bytes to read, hash and scan at every start).
    const quoted = /['\u2018"]([^'\u2019"]+)['\u2019"]\s*:\s*(?:Read-only file system|EROFS)/.exec(line);
    const plain = /([^\s:'"]+)\s*:\s*(?:Read-only file system|EROFS)/.exec(line);
    const open = /EROFS[^']*'([^']+)'/.exec(line);
    const target = quoted?.[1] ?? plain?.[1] ?? open?.[1];
    found.push(target ?? line.trim().slice(0, 160));
  }
  return found;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
