/**
 * Imports the described system's `.geekagent/sessions.json` (`{current, sessions: {id: messages}}`,
 * messages in the Chat Completions shape) once, into the user's store (project-import.ts decides
 * when): each session becomes a JSONL session file, the `current` one the latest. The old file is
 * left where it is (read without following a link); sessions that already exist are kept;
 * messages that do not fit the shape are skipped and counted.
 */
import { lstat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { HistoryMessage } from '../agent/history.js';
import { SUMMARY_PREFIX } from '../providers/messages.js';
import type { ContentPart } from '../tools/types.js';
import { readRegularFile } from '../util/state-dir.js';
import { AppendFile, ID_PATTERN } from './files.js';
import { changeLine, headerLine, titleOf } from './log.js';
import type { SessionStore } from './store.js';

export interface LegacyImport {
  imported: string[];
  skippedMessages: number;
}

type Raw = Record<string, unknown>;

/** Runs once per folder (the index remembers); undefined when there was nothing to import. */
export async function importLegacySessions(store: SessionStore): Promise<LegacyImport | undefined> {
  const file = path.join(store.projectDir, '.geekagent', 'sessions.json');
  let text: string;
  let mtime: Date;
  try {
    const info = await lstat(file);
    if (!info.isFile()) return undefined;
    mtime = info.mtime;
    const data = await readRegularFile(file);
    if (data === undefined) return undefined;
    text = data.toString('utf8');
  } catch {
    return undefined;
  }
  if (await store.legacyImported()) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const root = (parsed ?? {}) as { current?: unknown; sessions?: unknown };
  const sessions = typeof root.sessions === 'object' && root.sessions !== null ? (root.sessions as Raw) : {};
  const current = typeof root.current === 'string' ? root.current : undefined;
  const result: LegacyImport = { imported: [], skippedMessages: 0 };
  const entries: Record<string, { title: string; created: string; updated: string; turns: number }> = {};
  // `current` last, so its file is the newest: `--continue` picks it.
  const ids = Object.keys(sessions).sort((a, b) => (a === current ? 1 : b === current ? -1 : 0));
  for (const [order, id] of ids.entries()) {
    const list = sessions[id];
    if (!ID_PATTERN.test(id) || !Array.isArray(list) || (await store.exists(id))) continue;
    const { messages, skipped } = convert(list, id);
    result.skippedMessages += skipped;
    const created = mtime.toISOString();
    const target = new AppendFile(
      store.file(id),
      () => headerLine({ id, created, cwd: store.projectDir }),
      store.userDir,
    );
    try {
      // One write: the header (on open) and then every message.
      target.append(
        messages.map((message) => changeLine({ type: 'append', message }, mtime.getTime())).join(''),
      );
    } finally {
      target.close();
    }
    const when = new Date(mtime.getTime() + order);
    await utimes(store.file(id), when, when);
    const first = messages.find((message) => message.role === 'user');
    entries[id] = {
      title: titleOf(first?.role === 'user' ? first.text : ''),
      created,
      updated: when.toISOString(),
      turns: messages.filter((message) => message.role === 'user').length,
    };
    result.imported.push(id);
  }
  await store.markLegacyImported(entries);
  return result;
}

function convert(list: unknown[], session: string): { messages: HistoryMessage[]; skipped: number } {
  const messages: HistoryMessage[] = [];
  const callNames = new Map<string, string>();
  let skipped = 0;
  let n = 0;
  const id = () => `${session}-${(++n).toString(36)}`;
  for (const item of list) {
    const raw = (typeof item === 'object' && item !== null ? item : {}) as Raw;
    const text = contentText(raw.content);
    switch (raw.role) {
      case 'system':
        if (text.startsWith(SUMMARY_PREFIX)) {
          messages.push({ id: id(), role: 'summary', text: text.slice(SUMMARY_PREFIX.length).trim() });
        } else skipped++; // the system prompt is rebuilt every turn
        break;
      case 'user':
        messages.push({ id: id(), role: 'user', text });
        break;
      case 'assistant': {
        const calls = Array.isArray(raw.tool_calls) ? raw.tool_calls.flatMap(toolCall) : [];
        for (const call of calls) callNames.set(call.id, call.name);
        messages.push({
          id: id(),
          role: 'assistant',
          text,
          ...(calls.length > 0 ? { toolCalls: calls } : {}),
          ...(typeof raw.reasoning_content === 'string' && calls.length > 0
            ? { reasoning: raw.reasoning_content }
            : {}),
        });
        break;
      }
      case 'tool': {
        const callId = typeof raw.tool_call_id === 'string' ? raw.tool_call_id : undefined;
        if (!callId) {
          skipped++;
          break;
        }
        const name = typeof raw.name === 'string' ? raw.name : (callNames.get(callId) ?? 'tool');
        messages.push({ id: id(), role: 'tool', callId, name, output: text });
        break;
      }
      default:
        skipped++;
    }
  }
  return { messages, skipped };
}

function toolCall(value: unknown): Array<{ id: string; name: string; arguments: string }> {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Raw;
  const fn = (typeof raw.function === 'object' && raw.function !== null ? raw.function : {}) as Raw;
  if (typeof raw.id !== 'string' || typeof fn.name !== 'string') return [];
  return [{ id: raw.id, name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments : '{}' }];
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: Partial<ContentPart> & { type?: string }) =>
      part && part.type === 'text' && typeof part.text === 'string' ? part.text : '',
    )
    .join('\n');
}
