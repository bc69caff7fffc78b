/**
 * The `/rag add` progress line: `[#######.............] 1,234/10,000 files · 12.3 MB · docs/a.md`
 * — files done of the total, bytes read, and the file just handled (its name escaped: it comes
 * from the project folder). A face shows it in place (TUI) or as a compact stderr line.
 */
import { visibleLine } from '../util/terminal-text.js';

export interface AddProgress {
  done: number;
  total: number;
  bytes: number;
  /** The source being read (or just read). */
  current: string | undefined;
}

export const BAR_WIDTH = 20;
/** The shown name keeps its end (the file name) when it is longer than this. */
const NAME_WIDTH = 60;

export function progressBar(done: number, total: number, width = BAR_WIDTH): string {
  const share = total <= 0 ? 1 : Math.min(1, Math.max(0, done / total));
  const filled = Math.floor(share * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

export function formatProgress(p: AddProgress): string {
  const count = (n: number) => n.toLocaleString('en-US');
  const parts = [
    `${progressBar(p.done, p.total)} ${count(p.done)}/${count(p.total)} ${p.total === 1 ? 'source' : 'sources'}`,
    formatBytes(p.bytes),
  ];
  if (p.current !== undefined) {
    const name = visibleLine(p.current);
    parts.push(name.length > NAME_WIDTH ? `…${name.slice(name.length - NAME_WIDTH + 1)}` : name);
  }
  return parts.join(' · ');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
