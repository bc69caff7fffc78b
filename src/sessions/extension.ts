/**
 * Sessions as an extension: the described system's commands — `/sessions`, `/new [id]`,
 * `/open <id>`, `/load <id>`, `/save [id]`, `/reset` — and the panel's Session row. The session
 * file itself is written by `Sessions` as the conversation changes.
 */
import type { SlashCommand } from '../commands/types.js';
import { type Extension, PANEL_ORDER } from '../extensions/types.js';
import { errorMessage } from '../util/errors.js';
import type { Opened, Sessions } from './manager.js';
import type { SessionSummary } from './store.js';

export function sessionsExtension(sessions: Sessions): Extension {
  return {
    name: 'sessions',
    setup(host) {
      host.panel(() => ({ label: 'Session', value: sessions.currentId, order: PANEL_ORDER.session }));
      const guarded = (command: SlashCommand): SlashCommand => ({
        ...command,
        run: async (args, ctx) => {
          try {
            await command.run(args, ctx);
          } catch (error) {
            ctx.print(errorMessage(error), 'error');
          }
          host.changed();
        },
      });
      const open = (name: 'open' | 'load'): SlashCommand => ({
        name,
        usage: `/${name} <id>`,
        description: name === 'open' ? 'continue a saved session (see /sessions)' : 'same as /open',
        idleOnly: true,
        run: async (args, ctx) => {
          const [id] = args;
          if (!id) {
            ctx.print(`usage: /${name} <id> (/sessions lists them)`, 'error');
            return;
          }
          ctx.print(describeOpened(await sessions.open(id)));
          const last = sessions.lastUserMessage();
          if (last) ctx.print(`  last message: ${last}`);
        },
      });
      const commands: SlashCommand[] = [
        {
          name: 'sessions',
          usage: '/sessions',
          description: 'list the saved sessions of this folder (id, title, updated, turns)',
          run: async (_args, ctx) => {
            ctx.print(formatSessions(await sessions.list(), sessions.currentId));
          },
        },
        {
          name: 'new',
          usage: '/new [id]',
          description: 'start a new session (the current one stays saved)',
          idleOnly: true,
          run: async (args, ctx) => {
            const id = await sessions.startNew(args[0]);
            ctx.print(`new session ${id}`);
          },
        },
        open('open'),
        open('load'),
        {
          name: 'save',
          usage: '/save [id]',
          description: 'name the current session (it is saved as it goes)',
          idleOnly: true,
          run: async (args, ctx) => {
            if (args[0]) await sessions.rename(args[0]);
            ctx.print(
              `session ${sessions.currentId} is saved; resume with: geekagent --resume ${sessions.currentId}`,
            );
          },
        },
        {
          name: 'reset',
          usage: '/reset',
          description: 'clear the current conversation (its file keeps the transcript)',
          idleOnly: true,
          run: async (_args, ctx) => {
            sessions.reset();
            ctx.print(`conversation cleared (session ${sessions.currentId})`);
          },
        },
      ];
      for (const command of commands) host.commands.add(guarded(command));
    },
    dispose: () => sessions.close(),
  };
}

export function describeOpened(opened: Opened): string {
  const notes = [
    opened.repaired > 0
      ? `${opened.repaired} tool call${opened.repaired === 1 ? '' : 's'} left unfinished by an interrupted run marked interrupted`
      : '',
    opened.skipped > 0 ? `${opened.skipped} unreadable line${opened.skipped === 1 ? '' : 's'} skipped` : '',
  ].filter((note) => note !== '');
  const turns = `${opened.turns} turn${opened.turns === 1 ? '' : 's'}`;
  return `opened session ${opened.id} (${turns})${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`;
}

export function formatSessions(list: readonly SessionSummary[], current: string): string {
  if (list.length === 0) return '(no saved sessions in this folder yet)';
  const idWidth = Math.max(...list.map((session) => session.id.length));
  return list
    .map((session) => {
      const mark = session.id === current ? '*' : ' ';
      const updated = localTime(session.updated);
      const turns = `${session.turns} turn${session.turns === 1 ? '' : 's'}`;
      return `${mark} ${session.id.padEnd(idWidth)}  ${updated}  ${turns.padStart(9)}  ${session.title || '(untitled)'}`;
    })
    .join('\n');
}

/** `2026-03-01 14:02` in the person's time zone. */
function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
