/**
 * `/trust`: a person who answered "not now" to the folder-trust question (or started in a folder
 * that changed since they trusted it) changes their mind without restarting. It asks the start's
 * question again through the face (the TUI), records a yes as the start would, and says what
 * takes a new start: the folder's servers, rules, hooks, commands, skills, agents and `.env` are
 * read when GeekAgent starts, so `/exit` and `geekagent --continue` goes on with them.
 */

import type { Extension } from '../../extensions/types.js';
import { decideTrust, type FolderTrust, trustFolder } from '../decide.js';
import type { TrustContributor } from '../declarations.js';
import { ignoredSummary, TRUST_HINT } from '../describe.js';
import type { AskTrust } from '../reload.js';

export interface TrustCommandOptions {
  /** The run's trust, as decided at start. */
  trust: FolderTrust;
  projectDir: string;
  /** The real environment (`GEEKAGENT_HOME` locates the record). */
  env: NodeJS.ProcessEnv;
  homeDir?: string;
  /** What the folder is read for (boot/trust-contributors.ts). */
  contributors: readonly TrustContributor[];
  /** The face's trust question; absent (print mode, ACP): nobody to ask. */
  ask?: AskTrust;
  /** After a yes: what the face loads live (the TUI imports an earlier version's input history). */
  onTrusted?: () => Promise<void> | void;
}

export const TRUST_RESTART =
  'they load when GeekAgent starts: /exit, then run "geekagent --continue" to go on with this conversation with them';

export function trustExtension(options: TrustCommandOptions): Extension {
  let trustedNow = false;
  return {
    name: 'trust',
    setup(host) {
      host.commands.add({
        name: 'trust',
        usage: '/trust',
        description:
          "trust this folder (asks the start's question again): its servers, rules and hooks apply",
        run: async (_args, ctx) => {
          if (options.trust.state === 'trusted' || trustedNow) {
            ctx.print(
              trustedNow
                ? `this folder is trusted; what it declares is not loaded yet: ${TRUST_RESTART}`
                : 'this folder is trusted already',
            );
            return;
          }
          if (!options.ask) {
            ctx.print(`nobody to ask here: ${TRUST_HINT}`, 'error');
            return;
          }
          // Read afresh: the folder may have changed, or been trusted elsewhere, since the start.
          const now = await decideTrust({
            projectDir: options.projectDir,
            env: options.env,
            homeDir: options.homeDir,
            contributors: options.contributors,
          });
          if (now.state === 'untrusted') {
            if (!(await options.ask(now, ctx.signal)) || ctx.signal.aborted) {
              ctx.print('not trusted: the folder stays as it is for this run');
              return;
            }
            await trustFolder(now.declarations, { env: options.env, homeDir: options.homeDir });
          }
          trustedNow = true;
          await options.onTrusted?.();
          const what = ignoredSummary(now.declarations);
          ctx.print(`trusted: ${what ? `${what} — ` : ''}${TRUST_RESTART}`);
        },
      });
    },
  };
}
