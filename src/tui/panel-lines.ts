/**
 * The side panel's content as label/value rows, in the spec's order. Pure, so the order, the
 * root shortening and the "not configured" wording are tested without rendering. Values (model
 * name, folder, server names) are shown through `visibleLine`.
 */
import path from 'node:path';
import { visibleLine } from '../util/terminal-text.js';
import type { PanelData } from './types.js';

export const PANEL_WIDTH = 28;
/** Columns left for text: the panel's left border and padding take two. */
export const PANEL_TEXT_WIDTH = PANEL_WIDTH - 2;

export interface PanelRow {
  label: string;
  value: string;
}

export function panelRows(data: PanelData): PanelRow[] {
  const percent = data.contextWindow > 0 ? Math.round((data.contextTokens / data.contextWindow) * 100) : 0;
  return [
    { label: 'Model', value: data.model === undefined ? 'not configured' : visibleLine(data.model) },
    { label: 'Session', value: 'none' },
    { label: 'Root', value: shortenPath(visibleLine(data.root), PANEL_TEXT_WIDTH - 'Root '.length) },
    { label: 'Memory', value: 'none' },
    { label: 'Instructions', value: data.instructions ? 'loaded' : 'none' },
    { label: 'Skills', value: 'none' },
    { label: 'MCP', value: visibleLine(data.mcp) },
    { label: 'Context', value: `${count(data.contextTokens)} / ${count(data.contextWindow)}` },
    { label: '', value: `${percent}% used` },
    { label: 'Turn', value: `${count(data.turnTokens)} tokens` },
    { label: 'Total', value: `${count(data.totalTokens)} tokens` },
    { label: 'TODO', value: 'none' },
  ];
}

/** The path as is when it fits, else `…/basename` (itself cut with `…` if still too long). */
export function shortenPath(full: string, width: number): string {
  if (full.length <= width) return full;
  const short = `…/${path.basename(full)}`;
  return short.length <= width ? short : `${short.slice(0, Math.max(1, width - 1))}…`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
