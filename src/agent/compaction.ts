/**
 * Context compaction. Before a request that would fill more of the window than allowed (or when
 * the provider refused one as too long, or on /compact): old tool outputs are pruned first; if
 * that is not enough, the model summarises the older turns into one `[Summary of previous
 * conversation]` message, and the most recent turns stay verbatim. The split is always at a user
 * message, so a tool call and its result are never separated, and the current turn is never
 * touched. A summary that cannot be written drops the oldest turns instead (with a notice); three
 * failed compactions in a row stop automatic compaction with a clear message. Everything goes
 * through the history's range replacement, so the session file keeps the full transcript.
 */

import type { Message } from '../providers/messages.js';
import { cutCause, isCut } from '../providers/stop-reason.js';
import type { ChatProvider } from '../providers/types.js';
import { outputToText } from '../tools/types.js';
import { errorMessage, isAbortError } from '../util/errors.js';
import type { CompactionSettings } from './compaction-settings.js';
import { DEFAULT_AUTO_COMPACT_PERCENT } from './compaction-settings.js';
import type { Conversation } from './conversation.js';
import type { CompactionReport } from './events.js';
import type { HistoryMessage } from './history.js';
import { summaryInstructions, transcriptText } from './summary-prompt.js';
import { messagesChars } from './tokens.js';
import type { RequestScope } from './turn-points.js';

/** After this many failed compactions in a row, automatic compaction stops. */
export const MAX_FAILED_COMPACTIONS = 3;
/** Share of the target the most recent turns may keep verbatim. */
const KEEP_SHARE = 0.35;
/** Share of the window the transcript sent to be summarised may take. */
const SUMMARY_INPUT_SHARE = 0.5;
/** Tool outputs shorter than this are not worth pruning. */
const PRUNE_MIN_CHARS = 300;

export interface CompactorOptions {
  provider: ChatProvider;
  contextWindow: number;
  settings: CompactionSettings;
  /** Runs before each compaction (PreCompact hooks); its failure does not stop the compaction. */
  before?: (
    trigger: CompactionReport['trigger'],
    focus: string | undefined,
    signal: AbortSignal,
  ) => Promise<void>;
}

export interface CompactRequest {
  conversation: Conversation;
  trigger: CompactionReport['trigger'];
  signal: AbortSignal;
  /** The current turn's first message: it and everything after it stay as they are. */
  turnStart?: string;
  /** `/compact <focus>`: what the summary should keep in particular. */
  focus?: string;
  /** Tokens of the next request as it stands. */
  estimate(): number;
  /** Its characters: with the estimate, how many tokens a character of this conversation costs. */
  requestChars(): number;
  notify(message: string): void;
}

export type CompactionOutcome =
  | { kind: 'compacted'; report: CompactionReport; fits: boolean }
  | { kind: 'nothing'; reason: string };

export class Compactor {
  private failures = 0;
  /** Characters of what goes with the history (system prompt, tools), as last measured. */
  private overheadChars = 0;

  constructor(private readonly options: CompactorOptions) {}

  /** A compactor with the same settings and no history (a sub-agent's conversation). */
  /** A compactor with the same settings (for a sub-agent: its own model and window). */
  fresh(model: Pick<CompactorOptions, 'provider' | 'contextWindow'>): Compactor {
    return new Compactor({ ...this.options, ...model });
  }

  /** Compact above this many tokens. */
  get threshold(): number {
    const percent = this.options.settings.autoPercent || DEFAULT_AUTO_COMPACT_PERCENT;
    return Math.floor((this.options.contextWindow * percent) / 100);
  }

  get automatic(): boolean {
    return this.options.settings.autoPercent > 0 || this.options.settings.maxHistoryChars !== undefined;
  }

  get stopped(): boolean {
    return this.failures >= MAX_FAILED_COMPACTIONS;
  }

  /** The before-request hook: compacts first when the request would not fit (or just did not). */
  async beforeRequest(scope: RequestScope): Promise<void> {
    const { conversation } = scope;
    const estimate = scope.estimateTokens();
    this.overheadChars = Math.max(0, scope.requestChars() - messagesChars(conversation.messages));
    if (!this.automatic || this.stopped) return;
    if (scope.trigger === 'auto' && !this.needed(conversation, estimate)) return;
    const notify = (message: string) => scope.emit({ type: 'notice', message });
    const outcome = await this.compact({
      conversation,
      trigger: scope.trigger,
      signal: scope.signal,
      turnStart: scope.turnStart,
      estimate: scope.estimateTokens,
      requestChars: scope.requestChars,
      notify,
    });
    if (outcome.kind === 'compacted') scope.emit({ type: 'compacted', report: outcome.report });
    const succeeded = outcome.kind === 'compacted' && outcome.fits && outcome.report.method !== 'dropped';
    this.failures = succeeded ? 0 : this.failures + 1;
    if (outcome.kind === 'nothing') notify(`could not compact the conversation: ${outcome.reason}`);
    if (this.stopped) {
      notify(
        `automatic compaction stopped after ${MAX_FAILED_COMPACTIONS} failed attempts in a row: ` +
          'use /compact to try again, /new for a fresh session, or set GEEKAGENT_CONTEXT_WINDOW if the window is larger',
      );
    }
  }

  /** `/compact [focus]`: compacts now, whatever the size; automatic compaction starts over. */
  async compactNow(
    conversation: Conversation,
    focus: string | undefined,
    signal: AbortSignal,
  ): Promise<CompactionOutcome> {
    this.failures = 0;
    return this.compact({
      conversation,
      trigger: 'manual',
      signal,
      focus,
      estimate: () => conversation.estimateRequest(this.overheadChars),
      requestChars: () => this.overheadChars + messagesChars(conversation.messages),
      notify: () => undefined,
    });
  }

  private needed(conversation: Conversation, estimate: number): boolean {
    const { autoPercent, maxHistoryChars } = this.options.settings;
    if (autoPercent > 0 && estimate > this.threshold) return true;
    return maxHistoryChars !== undefined && messagesChars(conversation.messages) > maxHistoryChars;
  }

  private async compact(request: CompactRequest): Promise<CompactionOutcome> {
    await this.options.before?.(request.trigger, request.focus, request.signal).catch(() => undefined);
    const { conversation } = request;
    const before = request.estimate();
    const target =
      request.trigger === 'overflow' ? Math.min(this.threshold, Math.floor(before * 0.6)) : this.threshold;
    const fits = () => request.estimate() <= target && !this.overHistoryLimit(conversation);
    const report = (method: CompactionReport['method'], messages: number): CompactionOutcome => {
      const after = request.estimate();
      conversation.setContextEstimate(after);
      return {
        kind: 'compacted',
        report: { trigger: request.trigger, method, messages, beforeTokens: before, afterTokens: after },
        fits: fits(),
      };
    };

    const manual = request.trigger === 'manual';
    // Tokens per character as the provider counts this conversation (its report may say more than
    // the character estimate): the verbatim part is measured with it.
    const ratio = Math.max(conversation.tokensPerChar, before / Math.max(1, request.requestChars()));
    const keepFrom = this.keepFrom(conversation, request.turnStart, target, manual, ratio);
    const old = conversation.messages.slice(0, keepFrom);
    const oldHasTurns = old.some((message) => message.role !== 'summary');
    // 1. Old tool outputs are the cheapest to lose: often that alone makes room.
    const pruned = this.prune(conversation, keepFrom);
    if (pruned > 0 && !manual && fits()) return report('pruned', pruned);
    if (!oldHasTurns) {
      // Only the current turn is left: prune its older rounds' outputs too.
      const more = this.prune(conversation, lastAssistantIndex(conversation.messages));
      if (pruned + more > 0) return report('pruned', pruned + more);
      return {
        kind: 'nothing',
        reason: 'only the current turn is left, and it has no old tool output to prune',
      };
    }
    // 2. The older turns become one summary.
    const range = conversation.messages.slice(
      0,
      this.keepFrom(conversation, request.turnStart, target, manual, ratio),
    );
    try {
      const summary = await this.summarise(range, conversation, request);
      conversation.history.replaceRange(
        range[0]!.id,
        range.at(-1)!.id,
        [{ role: 'summary', text: summary }],
        'compaction',
      );
      return report('summary', range.length);
    } catch (error) {
      // /compact says what went wrong and leaves the conversation as it was.
      if (isAbortError(error) || request.signal.aborted || manual) throw error;
      // 3. Never a dead session: without a summary the oldest turns go, and the person is told.
      request.notify(
        `could not summarise the conversation (${errorMessage(error)}); dropped its ${range.length} oldest messages instead`,
      );
      const note: Message = {
        role: 'summary',
        text: `(The earlier part of this conversation, ${range.length} messages, was dropped: it could not be summarised.)`,
      };
      conversation.history.replaceRange(range[0]!.id, range.at(-1)!.id, [note], 'compaction');
      return report('dropped', range.length);
    }
  }

  private overHistoryLimit(conversation: Conversation): boolean {
    const limit = this.options.settings.maxHistoryChars;
    return limit !== undefined && messagesChars(conversation.messages) > limit;
  }

  /**
   * Where the verbatim part starts: at a user message, taking whole recent turns while they fit
   * the keep budget, and never after the current turn's start.
   */
  private keepFrom(
    conversation: Conversation,
    turnStart: string | undefined,
    target: number,
    manual: boolean,
    ratio: number,
  ): number {
    const messages = conversation.messages;
    const current = turnStart === undefined ? -1 : conversation.history.indexOf(turnStart);
    const protectedFrom = current >= 0 ? current : messages.length;
    // /compact summarises everything before the current turn: the person asked for it.
    let budget = manual ? 0 : Math.floor(target * KEEP_SHARE);
    const limit = this.options.settings.maxHistoryChars;
    if (limit !== undefined) budget = Math.min(budget, Math.floor((limit / 2) * ratio));
    let keepFrom = protectedFrom;
    let kept = 0;
    for (let i = protectedFrom - 1; i >= 0; i--) {
      kept += messagesChars([messages[i]!]) * ratio;
      if (kept > budget) break;
      if (messages[i]!.role === 'user') keepFrom = i;
    }
    return keepFrom;
  }

  /** Replaces long tool outputs before index `end` with a note; returns how many. One event each. */
  private prune(conversation: Conversation, end: number): number {
    const candidates = conversation.messages
      .slice(0, Math.max(0, end))
      .filter((message): message is Extract<HistoryMessage, { role: 'tool' }> => message.role === 'tool')
      .filter((message) => outputToText(message.output).length >= PRUNE_MIN_CHARS);
    for (const message of candidates) {
      const chars = outputToText(message.output).length;
      const { id, ...rest } = message;
      conversation.history.replaceRange(
        id,
        id,
        [
          {
            ...rest,
            output: `[output pruned to save context: ${chars} chars; run the tool again if it is needed]`,
          },
        ],
        'prune',
      );
    }
    return candidates.length;
  }

  private async summarise(
    range: readonly Message[],
    conversation: Conversation,
    request: CompactRequest,
  ): Promise<string> {
    const maxChars = Math.max(
      2_000,
      Math.floor((this.options.contextWindow * SUMMARY_INPUT_SHARE) / conversation.tokensPerChar),
    );
    const reply = await this.options.provider.complete({
      messages: [
        { role: 'system', text: summaryInstructions(request.focus) },
        { role: 'user', text: transcriptText(range, maxChars) },
      ],
      tools: [],
      signal: request.signal,
    });
    const text = reply.text.trim();
    // A refused or filtered summary is no summary; one cut at the output limit is most of one,
    // and says so (to the model, and to the person in a notice).
    if (isCut(reply.stop) && reply.stop.reason !== 'max_tokens')
      throw new Error(`the model did not finish the summary: ${cutCause(reply.stop)}`);
    if (text === '') throw new Error('the model returned an empty summary');
    if (isCut(reply.stop)) {
      request.notify(`the conversation's summary was cut off: ${cutCause(reply.stop)}; its end is missing`);
      return `${text}\n\n(This summary was cut off at the model's output limit: its end is missing.)`;
    }
    return text;
  }
}

function lastAssistantIndex(messages: readonly HistoryMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'assistant') return i;
  return 0;
}
