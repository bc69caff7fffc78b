/**
 * The session file format: JSON Lines, one event per line, append-only. The first line names the
 * session; every later line is one conversation change (agent/conversation.ts) — an appended
 * message, a rollback, a `/rewind` (the messages it went back over stay in the file, dropped by
 * replay), a compaction's range replacement, a usage report. Replaying the lines
 * rebuilds the conversation; a line that does not parse (the torn last line of a killed run) is
 * skipped and counted, never fatal.
 */

import type { ConversationChange, ConversationState, UsageBasis } from '../agent/conversation.js';
import { addUsage, emptyUsage } from '../agent/events.js';
import type { HistoryMessage } from '../agent/history.js';
import { messagesChars, observedRatio } from '../agent/tokens.js';
import { PROVIDER_KINDS } from '../config/provider-kinds.js';
import type { Usage } from '../providers/messages.js';
import * as z from '../util/schema.js';

export const LOG_VERSION = 1;

export interface SessionHeader {
  type: 'session';
  version: number;
  id: string;
  created: string;
  cwd: string;
}

/**
 * The line schemas, built on the first replay: zod builds every check when a schema is made, and
 * a new session (most runs) never reads a log.
 */
function buildLogSchemas() {
  // Usage in today's names, or in the OpenAI wire names files written before them used.
  const usageSchema = z.union([
    z.object({
      inputTokens: z.number(),
      outputTokens: z.number(),
      totalTokens: z.number(),
      cachedInputTokens: z.optional(z.number()),
    }),
    z.object({
      prompt_tokens: z.number(),
      completion_tokens: z.number(),
      total_tokens: z.number(),
      cached_tokens: z.optional(z.number()),
    }),
  ]);

  const contentPart = z.union([
    z.object({ type: z.literal('text'), text: z.string() }),
    z.object({ type: z.enum(['image', 'audio']), data: z.string(), mimeType: z.string() }),
  ]);

  const toolCall = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

  const messageSchema = z.union([
    z.object({ id: z.string(), role: z.enum(['system', 'summary']), text: z.string() }),
    z.object({
      id: z.string(),
      role: z.literal('user'),
      text: z.string(),
      context: z.optional(z.string()),
      // Attached images, base64 (each capped by its provider's limit when attached).
      images: z.optional(z.array(z.object({ name: z.string(), mimeType: z.string(), data: z.string() }))),
    }),
    z.object({
      id: z.string(),
      role: z.literal('assistant'),
      text: z.string(),
      toolCalls: z.optional(z.array(toolCall)),
      reasoning: z.optional(z.string()),
      // A provider's own data (thinking signatures, reasoning items): opaque JSON, checked by it.
      native: z.optional(z.object({ provider: z.enum(PROVIDER_KINDS), data: z.unknown() })),
    }),
    z.object({
      id: z.string(),
      role: z.literal('tool'),
      callId: z.string(),
      name: z.string(),
      output: z.union([z.string(), z.array(contentPart)]),
      isError: z.optional(z.boolean()),
    }),
  ]);

  const eventSchema = z.discriminatedUnion('type', [
    z.object({ type: z.literal('append'), message: messageSchema }),
    z.object({ type: z.literal('truncate'), after: z.nullable(z.string()) }),
    z.object({ type: z.literal('rewind'), to: z.string() }),
    z.object({
      type: z.literal('replace'),
      from: z.string(),
      to: z.string(),
      messages: z.array(messageSchema),
      reason: z.string(),
    }),
    z.object({
      type: z.literal('usage'),
      usage: usageSchema,
      requestChars: z.number(),
      afterId: z.optional(z.nullable(z.string())),
    }),
    z.object({ type: z.literal('state'), key: z.string(), value: z.unknown() }),
  ]);

  const headerSchema = z.object({
    type: z.literal('session'),
    version: z.number(),
    id: z.string(),
    created: z.string(),
    cwd: z.string(),
  });
  return { event: eventSchema, header: headerSchema, usage: usageSchema };
}

type LoggedUsage = z.infer<ReturnType<typeof buildLogSchemas>['usage']>;

/** A logged usage report in today's names, whichever names its line was written with. */
export function usageOfLine(logged: LoggedUsage): Usage {
  if ('inputTokens' in logged) return logged;
  const usage: Usage = {
    inputTokens: logged.prompt_tokens,
    outputTokens: logged.completion_tokens,
    totalTokens: logged.total_tokens,
  };
  if (logged.cached_tokens !== undefined) usage.cachedInputTokens = logged.cached_tokens;
  return usage;
}

let builtSchemas: ReturnType<typeof buildLogSchemas> | undefined;

function logSchemas(): ReturnType<typeof buildLogSchemas> {
  builtSchemas ??= buildLogSchemas();
  return builtSchemas;
}

export type LogEvent = z.infer<ReturnType<typeof buildLogSchemas>['event']>;

/** One line for a change; `load` (an opened session) is not a change of this session's log. */
export function changeLine(change: ConversationChange, at: number): string | undefined {
  if (change.type === 'load') return undefined;
  return `${JSON.stringify({ t: at, ...change })}\n`;
}

export function headerLine(header: Omit<SessionHeader, 'type' | 'version'>): string {
  return `${JSON.stringify({ type: 'session', version: LOG_VERSION, ...header })}\n`;
}

export interface Replayed {
  header: SessionHeader | undefined;
  state: ConversationState;
  /** The first user message, for lists. */
  title: string;
  /** User messages the conversation holds or summarised (rollbacks do not count). */
  turns: number;
  /** Lines that could not be read (a torn last line after a kill, or damage). */
  skipped: number;
  /** Every user message's id in the order it was sent, rewound and rolled-back ones too. */
  userOrder: string[];
}

/** Rebuilds a conversation from a session file's text. */
export function replay(text: string): Replayed {
  let header: SessionHeader | undefined;
  let messages: HistoryMessage[] = [];
  let usage = emptyUsage();
  let ratio: number | undefined;
  let context = 0;
  /** The last usage report still describes the history (no compaction or reset since). */
  let contextCurrent = false;
  let basis: UsageBasis | undefined;
  let title = '';
  let turns = 0;
  let skipped = 0;
  const userOrder: string[] = [];
  const state: Record<string, unknown> = {};
  const schemas = logSchemas();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      skipped++;
      continue;
    }
    if (i === 0 || (raw as { type?: unknown }).type === 'session') {
      const parsed = schemas.header.safeParse(raw);
      if (parsed.success) {
        header ??= parsed.data;
        continue;
      }
    }
    const parsed = schemas.event.safeParse(raw);
    if (!parsed.success) {
      skipped++;
      continue;
    }
    const event = parsed.data;
    switch (event.type) {
      case 'append':
        // Appends dominate a long session: push in place instead of copying the list.
        messages.push(event.message as HistoryMessage);
        if (event.message.role === 'user') {
          turns++;
          userOrder.push(event.message.id);
          if (title === '') title = event.message.text;
        }
        break;
      case 'truncate': {
        // A reset drops the session's state with the messages (as Conversation does).
        if (event.after === null) for (const key of Object.keys(state)) delete state[key];
        const at = event.after === null ? -1 : messages.findIndex((m) => m.id === event.after);
        if (event.after !== null && at < 0) break;
        const removed = messages.slice(at + 1);
        turns -= removed.filter((m) => m.role === 'user').length;
        messages = messages.slice(0, at + 1);
        contextCurrent = false;
        basis = undefined;
        break;
      }
      case 'rewind': {
        const at = messages.findIndex((m) => m.id === event.to);
        if (at < 0) break;
        turns -= messages.slice(at).filter((m) => m.role === 'user').length;
        messages = messages.slice(0, at);
        contextCurrent = false;
        basis = undefined;
        break;
      }
      case 'replace': {
        const from = messages.findIndex((m) => m.id === event.from);
        const to = messages.findIndex((m) => m.id === event.to);
        if (from < 0 || to < from) break;
        messages = [
          ...messages.slice(0, from),
          ...(event.messages as HistoryMessage[]),
          ...messages.slice(to + 1),
        ];
        contextCurrent = false;
        break;
      }
      case 'usage': {
        const round = usageOfLine(event.usage);
        usage = addUsage(usage, round);
        ratio = observedRatio(round.inputTokens, event.requestChars) ?? ratio;
        context = round.inputTokens;
        contextCurrent = true;
        if (round.inputTokens > 0) {
          basis = {
            promptTokens: round.inputTokens,
            afterId: event.afterId ?? messages.at(-1)?.id ?? null,
          };
        }
        break;
      }
      case 'state':
        state[event.key] = event.value;
        break;
    }
  }
  const tokensPerChar = ratio ?? 0.25;
  return {
    header,
    state: {
      messages,
      totalUsage: usage,
      tokensPerChar,
      contextTokens: contextCurrent ? context : Math.ceil(messagesChars(messages) * tokensPerChar),
      ...(basis ? { basis } : {}),
      state,
    },
    title: titleOf(title),
    turns: Math.max(0, turns),
    skipped,
    userOrder,
  };
}

/** A list's title: the first line of the first message, shortened. */
export function titleOf(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
