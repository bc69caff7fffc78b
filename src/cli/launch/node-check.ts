/**
 * The oldest Node this CLI runs on, and the one line a too-old Node gets instead of a stack trace
 * from some dependency. The launcher checks it before anything else loads, and its bundle is built
 * for old Nodes (scripts/bundle.mjs), so the check itself still parses there. package.json's
 * `engines` says the same (test/unit/cli/node-check.test.ts keeps them equal).
 */

/** Node 22.12: `require()` of ES modules without a flag, which current dependencies rely on. */
export const MIN_NODE = '22.12';

/** The line to print when `version` (process.versions.node) is older than MIN_NODE, else undefined. */
export function nodeTooOld(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const [minMajor = 0, minMinor = 0] = MIN_NODE.split('.').map(Number);
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return undefined;
  return `geekagent needs Node.js >=${MIN_NODE}; this is Node.js ${version}. Install Node.js 24 or 22 (https://nodejs.org).`;
}
