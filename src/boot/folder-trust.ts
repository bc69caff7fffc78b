/**
 * The run's one trust decision, for every command that reads a project's files: the agent's
 * faces (TUI, print mode, ACP, the library), `mcp list/get/call/add`, `mcp serve` and `config`.
 * Its own module, light: `geekagent mcp …` and the TUI's first frame load it without the bootstrap.
 */
import { SettingsFiles } from '../settings/files.js';
import { decideTrust, type FolderTrust, type TrustOptions } from '../trust/decide.js';
import { untrustedNotice } from '../trust/describe.js';
import { TRUST_CONTRIBUTORS } from './trust-contributors.js';

/**
 * Trusted by the record, `--trust`, or because the folder declares nothing; else untrusted. A
 * face with nobody to ask passes `notice`: an untrusted folder's declarations are then left out
 * and it is told so, in print mode's words (trust/describe.ts). The TUI passes none and asks.
 */
export async function decideFolderTrust(
  options: Omit<TrustOptions, 'contributors'> & { notice?: (text: string) => void },
): Promise<FolderTrust> {
  const { notice, ...trustOptions } = options;
  // Every feature's declarations (boot/trust-contributors.ts): the same list for every command.
  // The run's settings reads start here: the run goes on through them (`trust.files`).
  const trust = await decideTrust({
    ...trustOptions,
    contributors: TRUST_CONTRIBUTORS,
    files: trustOptions.files ?? new SettingsFiles(),
  });
  const ignored = untrustedNotice(trust);
  if (ignored && notice) notice(ignored);
  return trust;
}
