/**
 * `/rewind` as an extension: pick one of the conversation's earlier messages, then what goes back
 * to before it — the conversation, the files the agent wrote since, or both (rewind.ts does it).
 * The TUI shows the picker (Esc Esc on an empty input line opens it too); print mode has none,
 * so the command says so there.
 */
import type { Extension } from '../extensions/types.js';
import { protectedRestoreQuestion } from '../permissions/undo-confirm.js';
import { errorMessage } from '../util/errors.js';
import { visibleLine } from '../util/terminal-text.js';
import { describeRewind, type Rewinder, type RewindMode } from './rewind.js';

const MODES: Array<{ mode: RewindMode | undefined; label: string }> = [
  { mode: 'both', label: 'Conversation and files' },
  { mode: 'conversation', label: 'Conversation only (files stay as they are)' },
  { mode: 'files', label: 'Files only (the conversation stays)' },
  { mode: undefined, label: 'Never mind' },
];

export function rewindExtension(rewinder: Rewinder): Extension {
  return {
    name: 'rewind',
    setup(host) {
      host.commands.add({
        name: 'rewind',
        usage: '/rewind',
        description: 'go back to before an earlier message: the conversation, the files, or both',
        idleOnly: true,
        run: async (_args, ctx) => {
          if (!ctx.choose) {
            ctx.print(
              '/rewind picks a message interactively and is not available in print mode: run geekagent without -p (--resume <id> opens this session); /undo takes back one write',
              'error',
            );
            return;
          }
          const points = rewinder.points();
          if (points.length === 0) {
            ctx.print('nothing to rewind: this conversation has no messages yet');
            return;
          }
          const files = await rewinder.filesSince(points);
          const labels = points.map((point) => {
            const changed = files.get(point.id)?.length ?? 0;
            return changed > 0
              ? `${point.label}  (${changed} file${changed === 1 ? '' : 's'} changed since)`
              : point.label;
          });
          const picked = await ctx.choose({
            title: 'Rewind: go back to before which message? (newest first)',
            options: labels,
          });
          const point = picked === undefined ? undefined : points[picked];
          if (!point) {
            ctx.print('rewind cancelled');
            return;
          }
          const changed = files.get(point.id) ?? [];
          const how = await ctx.choose({
            title: `Rewind to before “${point.label}”: ${
              changed.length === 0
                ? 'the agent changed no files since'
                : `files changed since: ${fileList(changed)}`
            }`,
            options: MODES.map((choice) => choice.label),
          });
          const mode = how === undefined ? undefined : MODES[how]?.mode;
          if (mode === undefined) {
            ctx.print('rewind cancelled');
            return;
          }
          try {
            const confirm = protectedRestoreQuestion(ctx.choose, 'rewind');
            const result = await rewinder.rewind(point.id, mode, confirm);
            // First the screen goes back, then the report follows the turns that are kept.
            if (result.droppedIds) ctx.rewound?.(result.droppedIds);
            ctx.print(describeRewind(result));
          } catch (error) {
            ctx.print(`rewind failed: ${errorMessage(error)}`, 'error');
            return;
          }
          // As Claude Code does: the message comes back to be edited and sent again.
          if (mode !== 'files') ctx.setInput?.(point.text);
          host.changed();
        },
      });
    },
  };
}

/** A few names, escaped, and how many more. */
function fileList(files: readonly string[]): string {
  const shown = files.slice(0, 5).map(visibleLine).join(', ');
  return files.length > 5 ? `${shown} and ${files.length - 5} more` : shown;
}
