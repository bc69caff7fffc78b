/**
 * Shared test data for the TUI component tests: panel data, snapshots, a key target that records
 * calls, and a reader for the foreground colour a piece of text was drawn in.
 */
import { stripVTControlCharacters } from 'node:util';
import chalk from 'chalk';
import { marked } from 'marked';
import { createElement, type ReactElement } from 'react';
import { afterAll, beforeAll } from 'vitest';
import { PANEL_ORDER, type PanelRow } from '../../../src/extensions/types.js';
import type { ServerState, ServerStatus } from '../../../src/mcp/status.js';
import type { ApprovalAnswer } from '../../../src/permissions/types.js';
import { MarkdownLexer } from '../../../src/tui/components/Markdown.js';
import { InputHistory } from '../../../src/tui/history.js';
import type { KeyTarget } from '../../../src/tui/key-actions.js';
import type { PanelData, SessionSnapshot } from '../../../src/tui/types.js';

/**
 * Draws this file's frames in 16 colours. Ink's chalk reads the terminal's colour support once, when
 * it is first loaded, and the fast tier shares loaded modules between test files (no isolation), so
 * FORCE_COLOR set by one file comes too late: set chalk's level for this file and put it back.
 */
export function drawInColour(): void {
  let saved = chalk.level;
  beforeAll(() => {
    saved = chalk.level;
    chalk.level = 1;
  });
  afterAll(() => {
    chalk.level = saved;
  });
}

/** `node` with marked's lexer provided, as mount.tsx provides it once loaded. */
export function withMarkdown(node: ReactElement): ReactElement {
  return createElement(MarkdownLexer.Provider, { value: (text: string) => marked.lexer(text) }, node);
}

/** Panel data with the rows the extensions contribute (session, instructions, MCP) given by value. */
export function panelData(
  overrides: Partial<PanelData> & { session?: string; instructions?: boolean; mcp?: string } = {},
): PanelData {
  const { session, instructions = false, mcp = 'none', ...core } = overrides;
  const rows: PanelRow[] = [
    ...(session === undefined ? [] : [{ label: 'Session', value: session, order: PANEL_ORDER.session }]),
    { label: 'Instructions', value: instructions ? 'loaded' : 'none', order: PANEL_ORDER.instructions },
    { label: 'MCP', value: mcp, order: PANEL_ORDER.mcp },
  ];
  return {
    model: 'fake-model',
    root: '/tmp/p',
    contextTokens: 0,
    contextWindow: 128_000,
    turnTokens: 0,
    totalTokens: 0,
    rows,
    ...core,
  };
}

export function snapshot(overrides: Partial<SessionSnapshot> = {}): SessionSnapshot {
  return {
    entries: [],
    busy: false,
    turnStartedAt: undefined,
    queued: [],
    tools: [],
    question: undefined,
    questionExplicit: false,
    form: undefined,
    panel: panelData(),
    ...overrides,
  };
}

export interface RecordingTarget extends KeyTarget {
  submitted: string[];
  answers: ApprovalAnswer[];
  calls: string[];
}

export function recordingTarget(history = new InputHistory(undefined)): RecordingTarget {
  const target: RecordingTarget = {
    submitted: [],
    answers: [],
    calls: [],
    history,
    formInput: (text: string) => {
      target.calls.push(`form:${text}`);
    },
    submit: (input) => {
      target.submitted.push(input);
    },
    answer: (answer) => {
      target.answers.push(answer);
    },
    cancel: () => {
      target.calls.push('cancel');
    },
    interrupt: () => {
      target.calls.push('interrupt');
    },
    requestExit: () => {
      target.calls.push('exit');
    },
  };
  return target;
}

export function status(name: string, state: ServerState): ServerStatus {
  return { name, source: 'project', transport: 'stdio', state, warnings: [] };
}

export function connected(name: string, tools: string[]): ServerStatus {
  return status(name, {
    state: 'connected',
    tools: tools.map((tool) => ({
      modelName: `mcp_${name}_${tool}`,
      originalName: tool,
      description: `does ${tool}`,
      inputSchema: {},
      definition: { name: tool, description: `does ${tool}` },
    })),
  });
}

const COLOURS: Record<string, string> = {
  '31': 'red',
  '32': 'green',
  '33': 'yellow',
  '36': 'cyan',
  '90': 'gray',
  '96': 'cyanBright',
  '39': 'default',
};

// Built from a string: biome rightly dislikes control characters in regex literals.
const SGR = new RegExp(`${String.fromCharCode(27)}\\[(\\d+)m`, 'g');

/** The foreground colour in effect where `text` first appears in an ANSI frame. */
export function colourOf(frame: string, text: string): string | undefined {
  const at = frame.indexOf(text);
  if (at < 0) return undefined;
  let colour = 'default';
  for (const match of frame.slice(0, at).matchAll(SGR)) {
    const name = COLOURS[match[1]!];
    if (name) colour = name;
  }
  return colour;
}

/** The frame with ANSI codes removed, for plain text assertions. */
export function plain(frame: string | undefined): string {
  return stripVTControlCharacters(frame ?? '');
}
