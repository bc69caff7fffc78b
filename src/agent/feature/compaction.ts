/**
 * Compaction as an extension: the compactor (agent/compaction.ts) runs before every model request
 * and on the provider's "context length exceeded"; `/compact [focus]` runs it now, with optional
 * instructions for what the summary should keep.
 */

import type { BeforeCompactHook, Extension } from '../../extensions/types.js';
import { errorMessage, isAbortError } from '../../util/errors.js';
import type { Compactor } from '../compaction.js';
import type { Conversation } from '../conversation.js';
import { describeCompaction } from '../events.js';

/**
 * `build` makes the compactor with `before`: the seam's `beforeCompact` hooks (PreCompact),
 * whichever extension registered them.
 */
export function compactionExtension(
  build: (before: BeforeCompactHook) => Compactor,
  conversation: Conversation,
): Extension {
  return {
    name: 'compaction',
    // The request is measured once servers are up and deferred tools are chosen: it is what is sent.
    after: ['mcp', 'tool-search'],
    setup(host) {
      const compactor = build((trigger, focus, signal) => host.compacting(trigger, focus, signal));
      // A sub-agent's conversation has a window to fit too: it is compacted by a compactor of its
      // own (its failures must not stop the main conversation's automatic compaction), against its
      // model's window and summarised by its model.
      host.on.beforeRequest((request) => compactor.beforeRequest(request), {
        subAgents: ({ provider }) => {
          const own = compactor.fresh({ provider, contextWindow: provider.contextWindow });
          return (request) => own.beforeRequest(request);
        },
      });
      host.commands.add({
        name: 'compact',
        usage: '/compact [focus]',
        description: 'summarise the older turns now (optionally: what the summary should keep)',
        idleOnly: true,
        run: async (args, ctx) => {
          const focus = args.join(' ').trim();
          try {
            const outcome = await compactor.compactNow(
              conversation,
              focus === '' ? undefined : focus,
              ctx.signal,
            );
            ctx.print(
              outcome.kind === 'compacted'
                ? describeCompaction(outcome.report)
                : `nothing to compact yet: ${outcome.reason}`,
            );
          } catch (error) {
            ctx.print(
              isAbortError(error) ? 'cancelled' : `could not compact: ${errorMessage(error)}`,
              'error',
            );
          }
          host.changed();
        },
      });
    },
  };
}
