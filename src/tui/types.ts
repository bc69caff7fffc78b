/**
 * The TUI's view vocabulary: transcript entries, running tools and the snapshot the components
 * render. Plain data only — the session produces it, the components read it.
 */
import type { PanelRow } from '../extensions/types.js';
import type { ApprovalAnswer, ApprovalRequest } from '../permissions/types.js';
import type { ToolProgress } from '../tools/types.js';
import type { FolderTrust } from '../trust/decide.js';
import type { ChoiceView } from './chooser.js';
import type { FormView } from './elicitor.js';

/**
 * How a line is coloured: user cyan, model green (Markdown), tool yellow, system grey, error red;
 * `title` is the greeting's first line.
 */
export type LineKind = 'title' | 'user' | 'model' | 'tool' | 'system' | 'error';

export type Entry =
  | { id: number; kind: LineKind; text: string }
  /**
   * The model's reasoning: streaming while `endedAt` is undefined (its last lines show), then one
   * line `Thought for N s`, or the whole text when `expanded` (Ctrl+O).
   */
  | {
      id: number;
      kind: 'reasoning';
      text: string;
      startedAt: number;
      endedAt: number | undefined;
      expanded: boolean;
    }
  /** A confirmation that was answered: the question as shown, plus the answer. */
  | { id: number; kind: 'question'; request: ApprovalRequest; answer: ApprovalAnswer };

export interface RunningTool {
  callId: string;
  name: string;
  startedAt: number;
  progress?: ToolProgress;
}

/** Everything the side panel shows: the core values, plus the rows extensions contribute. */
export interface PanelData {
  /** The app is still being built (the first frame): only the model row, saying so. */
  starting?: boolean;
  /** `provider · model`, or undefined when no API key is configured. */
  model: string | undefined;
  /** Share of the latest request's prompt read from the provider's cache (undefined: not reported). */
  cachedPercent?: number;
  root: string;
  contextTokens: number;
  contextWindow: number;
  turnTokens: number;
  totalTokens: number;
  /** Session, Instructions, MCP … — each from the extension that owns it, in panel order. */
  rows: readonly PanelRow[];
}

export interface SessionSnapshot {
  entries: readonly Entry[];
  /** Counts the rewinds that took entries off the transcript. */
  rewinds?: number;
  busy: boolean;
  /** When the running turn started (ms since epoch), for the elapsed-time readout. */
  turnStartedAt: number | undefined;
  /** Tokens the model produced in the running turn (its usage, or estimated while it streams). */
  turnOutputTokens?: number;
  queued: readonly string[];
  tools: readonly RunningTool[];
  /** The open confirmation, if any (the approver holds the rest of the queue). */
  question: ApprovalRequest | undefined;
  /**
   * The open confirmation is a server's own request (sampling): keys typed for the input line
   * never answer it, only a focused choice does (Tab, ←/→, Enter).
   */
  questionExplicit: boolean;
  /** The folder-trust question: the start's (the front's), or one a reload asks (the session's). */
  trust?: TrustQuestionView;
  /** An open elicitation form, if any (shown when no confirmation is open). */
  form: FormView | undefined;
  /** A command's list to pick from (`/rewind`), if one is open. */
  choice?: ChoiceView;
  /** Text a command put into the input line (a rewound message), a new id each time. */
  inputFill?: { id: number; text: string };
  panel: PanelData;
}

/** `trust` records the folder, `not-now` starts without its declarations, `quit` leaves. */
export type TrustAnswer = 'trust' | 'not-now' | 'quit';

/** The trust question on screen: a new object for each question asked. */
export interface TrustQuestionView {
  trust: Extract<FolderTrust, { state: 'untrusted' }>;
}

export const CONFIRM_PROMPT = 'Confirm execution? [y/N/a]';

/** The prompt under a question: its own answers' labels when it has them (leaving plan mode). */
export function confirmPrompt(request: ApprovalRequest): string {
  const answers = request.answers;
  if (!answers) return CONFIRM_PROMPT;
  return `[y] ${answers.yes} · [a] ${answers.always} · [N] ${answers.no}`;
}

/** What `a` means, said while the question is open (the transcript keeps the short prompt). */
export const ALWAYS_HINT = '(a = always for this tool in this project)';

/** The open question's prompt: the usual one says what `a` does. */
export function openPrompt(request: ApprovalRequest): string {
  return request.answers ? confirmPrompt(request) : `${CONFIRM_PROMPT} ${ALWAYS_HINT}`;
}

export function answerLetter(answer: ApprovalAnswer): string {
  return answer === 'yes' ? 'y' : answer === 'always' ? 'a' : 'n';
}
