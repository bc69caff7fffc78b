/**
 * The side panel's content as label/value rows: the core rows (model, root, context, tokens) and
 * the rows extensions contribute (session, instructions, MCP …), merged in panel order. Pure, so
 * the order, the root shortening and the "not configured" wording are tested without rendering.
 * Values (model name, folder, server names, anything an extension shows) go through `visibleLine`.
 */
import path from 'node:path';
import { PANEL_ORDER, type PanelRow } from '../extensions/types.js';
import { visibleLine } from '../util/terminal-text.js';
import type { PanelData } from './types.js';

export type { PanelRow };

export const PANEL_WIDTH = 28;
/** Columns left for text: the panel's left border and padding take two. */
export const PANEL_TEXT_WIDTH = PANEL_WIDTH - 2;

export function panelRows(data: PanelData): PanelRow[] {
  if (data.starting) return [{ label: 'Model', value: 'starting…', order: PANEL_ORDER.model }];
  const percent = data.contextWindow > 0 ? Math.round((data.contextTokens / data.contextWindow) * 100) : 0;
  const core: PanelRow[] = [
    {
      label: 'Model',
      value: data.model === undefined ? 'not configured' : visibleLine(data.model),
      order: PANEL_ORDER.model,
    },
    {
      label: 'Root',
      value: shortenPath(visibleLine(data.root), PANEL_TEXT_WIDTH - 'Root '.length),
      order: PANEL_ORDER.root,
    },
    {
      label: 'Context',
      value: `${count(data.contextTokens)} / ${count(data.contextWindow)}`,
      order: PANEL_ORDER.context,
    },
    {
      label: '',
      value:
        data.cachedPercent === undefined
          ? `${percent}% used`
          : `${percent}% used · cached ${data.cachedPercent}%`,
      order: PANEL_ORDER.context + 0.5,
    },
    { label: 'Turn', value: `${count(data.turnTokens)} tokens`, order: PANEL_ORDER.turn },
    { label: 'Total', value: `${count(data.totalTokens)} tokens`, order: PANEL_ORDER.total },
  ];
  const contributed = data.rows.map((row) => ({
    ...row,
    label: visibleLine(row.label),
    value: visibleLine(row.value),
  }));
  // A stable sort: an extension row with a core row's order goes after it.
  return [...core, ...contributed].sort((a, b) => a.order - b.order);
}

/** The path as is when it fits, else `…/basename` (itself cut with `…` if still too long). */
export function shortenPath(full: string, width: number): string {
  if (full.length <= width) return full;
  const short = `…/${path.basename(full)}`;
  return short.length <= width ? short : `${short.slice(0, Math.max(1, width - 1))}…`;
}

/** One formatter for every frame: `toLocaleString` builds a new one per call, costly 20 times a second. */
const NUMBER = new Intl.NumberFormat('en-US');

function count(n: number): string {
  return NUMBER.format(n);
}
