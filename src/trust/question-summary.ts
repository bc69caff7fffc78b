/**
 * The trust question as it fits on a screen: the folder, what it declares counted per kind, then
 * entries — each kind gets its turn, so 85 servers cannot push a lone allow rule off the screen —
 * each one line, padding counted and long words cut (`compactLine`), and a note for what is left
 * out. The exact listing (`trustQuestionLines`) is what the pager and `geekagent trust` show.
 */
import { compactLine } from '../util/compact-text.js';
import { visibleLine } from '../util/terminal-text.js';
import type { FolderTrust } from './decide.js';
import type { DeclarationKind } from './declarations.js';

type Untrusted = Extract<FolderTrust, { state: 'untrusted' }>;

/** How a kind is counted; a kind without a label is counted by its name. */
// Total over the kinds: a new kind without a label fails the typecheck instead of showing its internal name.
const KIND_LABELS: Record<DeclarationKind, readonly [string, string]> = {
  server: ['MCP server', 'MCP servers'],
  serverSandbox: ['sandbox grant', 'sandbox grants'],
  allow: ['tool rule', 'tool rules'],
  annotationAllow: ['annotation rule', 'annotation rules'],
  fetchHost: ['fetch host', 'fetch hosts'],
  root: ['root outside the folder', 'roots outside the folder'],
  env: ['.env setting', '.env settings'],
  skill: ['project skill', 'project skills'],
  skillAllow: ['skill tool whitelist', 'skill tool whitelists'],
  skillTool: ['skill executable', 'skill executables'],
  skillServer: ['skill MCP server', 'skill MCP servers'],
  agent: ['custom agent', 'custom agents'],
  command: ['custom command', 'custom commands'],
  memory: ['project memory', 'project memories'],
  hook: ['hook', 'hooks'],
  plugin: ['project plugin', 'project plugins'],
  pluginPart: ['plugin part', 'plugin parts'],
};

/** The note under a summary that left something out or cut a line. */
export const FULL_LIST_HINT = 'Ctrl+T shows the full list, exactly as declared';

export interface SummaryOptions {
  /** Characters per line. */
  width: number;
  /** Lines the summary may take (it takes at least the header, the counts and the note). */
  rows: number;
}

export interface TrustSummary {
  lines: string[];
  /** Something is left out or cut: the note says how to see all of it. */
  shortened: boolean;
}

/** One entry: its kind and its lines as declared (untrusted, raw). */
interface Block {
  kind: string;
  lines: Array<{ indent: string; raw: string }>;
}

export function trustQuestionSummary(trust: Untrusted, { width, rows }: SummaryOptions): TrustSummary {
  const { declarations, changes } = trust;
  let shortened = false;
  const shorten = (raw: string, indent: string, most: number): string[] => {
    const shown = rowsOf(raw, indent, width, most);
    if (shown.cut) shortened = true;
    return shown.rows;
  };
  const head: string[] = [];
  let blocks: Block[];
  if (changes) {
    head.push(...shorten(`This folder changed since you trusted it: ${declarations.folder}`, '', 2));
    blocks = changes.map((change) => ({
      kind: change.item.kind,
      lines: [
        { indent: '  ', raw: `${change.change === 'new' ? 'new:' : 'changed:'} ${change.item.text}` },
        ...(change.was === undefined ? [] : [{ indent: '      ', raw: `was: ${change.was}` }]),
      ],
    }));
    const added = changes.filter((change) => change.change === 'new').length;
    const what = [
      added > 0 ? `${added} new` : '',
      changes.length > added ? `${changes.length - added} changed` : '',
    ]
      .filter(Boolean)
      .join(', ');
    head.push(...wrapParts([`${what}:`, ...countParts(blocks)], width));
    const unchanged = declarations.items.length - changes.length;
    if (unchanged > 0) head.push(`(and ${unchanged} unchanged that you trusted before)`);
  } else {
    head.push(...shorten(`GeekAgent has not run in this folder before: ${declarations.folder}`, '', 2));
    blocks = declarations.items.map((item) => ({
      kind: item.kind,
      lines: [{ indent: '  ', raw: item.text }],
    }));
    head.push(
      ...wrapParts(
        ['It declares', ...countParts(blocks), '(nothing of it is used until you trust it):'],
        width,
      ),
    );
  }

  const kinds = [...new Set(blocks.map((block) => block.kind))];
  // A row for the note stays free. Everything fits: all of it, a line in up to three rows (else
  // two, else one). Else one row a line, and each kind in turn gets an entry while there is room,
  // keeping a row per kind for "… and N more".
  const room = rows - head.length - 1;
  const layout = (most: number) =>
    blocks.map((block) => block.lines.map((line) => rowsOf(line.raw, line.indent, width, most)));
  let chosen = layout(1);
  for (const most of [3, 2]) {
    const candidate = layout(most);
    if (rowCount(candidate.flat()) <= room) {
      chosen = candidate;
      break;
    }
  }
  const shown = new Set<number>();
  if (rowCount(chosen.flat()) <= room) {
    for (let i = 0; i < blocks.length; i++) shown.add(i);
  } else {
    let budget = room - kinds.length;
    const queues = kinds.map((kind) => blocks.flatMap((block, i) => (block.kind === kind ? [i] : [])));
    for (let taken = true; taken; ) {
      taken = false;
      for (const queue of queues) {
        const next = queue[0];
        if (next === undefined || rowCount(chosen[next]!) > budget) continue;
        queue.shift();
        shown.add(next);
        budget -= rowCount(chosen[next]!);
        taken = true;
      }
    }
  }

  const body: string[] = [];
  for (const kind of kinds) {
    let hidden = 0;
    blocks.forEach((block, i) => {
      if (block.kind !== kind) return;
      if (!shown.has(i)) {
        hidden++;
        return;
      }
      for (const line of chosen[i]!) {
        if (line.cut) shortened = true;
        body.push(...line.rows);
      }
    });
    if (hidden > 0) {
      shortened = true;
      body.push(`  … and ${hidden} more ${label(kind, hidden)}`);
    }
  }
  const lines = [...head, ...body];
  if (shortened) lines.push(`(${FULL_LIST_HINT})`);
  return { lines, shortened };
}

interface Rows {
  rows: string[];
  cut: boolean;
}

function rowCount(lines: readonly Rows[]): number {
  return lines.reduce((sum, line) => sum + line.rows.length, 0);
}

/**
 * `raw` made visible and compacted, in at most `most` rows of `width` after `indent`
 * (continuation rows two further in), the last row ending with `…` when cut.
 */
function rowsOf(raw: string, indent: string, width: number, most: number): Rows {
  const compact = compactLine(raw);
  const chars = Array.from(compact);
  const rows: string[] = [];
  let at = 0;
  while (at < chars.length && rows.length < most) {
    const lead = rows.length === 0 ? indent : `${indent}  `;
    const room = Math.max(8, width - lead.length);
    const last = rows.length === most - 1;
    let take = chars.length - at > room && last ? room - 1 : room;
    // A row that wraps breaks after a space in its last third, so words stay whole.
    if (!last && chars.length - at > room) {
      const space = chars.lastIndexOf(' ', at + room - 1);
      if (space >= at + Math.floor((2 * room) / 3)) take = space + 1 - at;
    }
    const cut = last && chars.length - at > room;
    rows.push(`${lead}${chars.slice(at, at + take).join('')}${cut ? '…' : ''}`);
    at += take;
  }
  if (rows.length === 0) rows.push(indent);
  return { rows, cut: at < chars.length || compact !== visibleLine(raw) };
}

/** `85 MCP servers`, `1 tool rule`, … in the order the kinds first appear. */
function countParts(blocks: readonly Block[]): string[] {
  const counts = new Map<string, number>();
  for (const block of blocks) counts.set(block.kind, (counts.get(block.kind) ?? 0) + 1);
  const parts = [...counts].map(([kind, count]) => `${count} ${label(kind, count)}`);
  return parts.map((part, i) => (i < parts.length - 1 ? `${part},` : part));
}

function label(kind: string, count: number): string {
  const labels: readonly [string, string] | undefined = KIND_LABELS[kind as DeclarationKind];
  if (!labels) return kind;
  return count === 1 ? labels[0] : labels[1];
}

/** Parts (trusted words and counts) joined with spaces into lines of at most `width`. */
function wrapParts(parts: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of parts) {
    if (line !== '' && line.length + 1 + part.length > width) {
      lines.push(line);
      line = '';
    }
    line = line === '' ? part : `${line} ${part}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}
