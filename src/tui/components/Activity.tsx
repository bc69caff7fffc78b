/**
 * What is happening right now, under the transcript: running tools with a spinner and elapsed
 * time (MCP progress as a bar with the server's message), "thinking" while the model works, and
 * messages queued behind the running turn. Tool names and progress messages come from servers:
 * shown through `visibleLine`.
 */
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import type { ToolProgress } from '../../tools/types.js';
import { visibleLine } from '../../util/terminal-text.js';
import type { RunningTool } from '../types.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const BAR_WIDTH = 16;
const NUMBER = new Intl.NumberFormat('en-US');

export interface ActivityProps {
  busy: boolean;
  turnStartedAt: number | undefined;
  /** Tokens produced so far this turn: shown with the rate once there are any. */
  tokens?: number;
  tools: readonly RunningTool[];
  queued: readonly string[];
  /** A question is open: tools wait on it, so no spinner pretends they are running. */
  waitingForAnswer: boolean;
  now?: () => number;
}

export function Activity({
  busy,
  turnStartedAt,
  tokens = 0,
  tools,
  queued,
  waitingForAnswer,
  now = Date.now,
}: ActivityProps) {
  const ticking = busy && !waitingForAnswer;
  const frame = useTick(ticking);
  const spinner = FRAMES[frame % FRAMES.length];
  return (
    <Box flexDirection="column">
      {ticking && tools.length === 0 && turnStartedAt !== undefined ? (
        <Text color="gray">{`${spinner} thinking… ${elapsed(now() - turnStartedAt)}${rate(tokens, now() - turnStartedAt)}`}</Text>
      ) : null}
      {ticking
        ? tools.map((tool) => (
            <Box key={tool.callId} flexDirection="column">
              <Text color="yellow">{`${spinner} ${visibleLine(tool.name)} ${elapsed(now() - tool.startedAt)}`}</Text>
              {tool.progress ? <Text color="yellow">{`  ${progressBar(tool.progress)}`}</Text> : null}
            </Box>
          ))
        : null}
      {queued.length > 0 ? <Text color="gray">{queued.map(queuedLine).join('\n')}</Text> : null}
    </Box>
  );
}

/** Characters of a queued message shown: its first line, cut. */
const QUEUED_CHARS = 120;

/**
 * A queued message in one short row: its first line (cut) and how many lines follow. A pasted
 * 5,000-line message laid out whole would take seconds at every frame while it waits.
 */
export function queuedLine(text: string): string {
  const lines = text.split('\n');
  const first = visibleLine(lines[0] ?? '');
  const shown = first.length > QUEUED_CHARS ? `${first.slice(0, QUEUED_CHARS - 1)}…` : first;
  const more = lines.length > 1 ? ` (+${lines.length - 1} more lines)` : '';
  return `queued › ${shown}${more}`;
}

/** `[██████░░░░░░░░░░] 40% message`, or a count with the message when the total is unknown. */
export function progressBar(progress: ToolProgress): string {
  const message = progress.message ? ` ${visibleLine(progress.message)}` : '';
  if (!progress.total || progress.total <= 0) return `${progress.progress}${message}`;
  const ratio = Math.min(1, Math.max(0, progress.progress / progress.total));
  const filled = Math.round(ratio * BAR_WIDTH);
  return `[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}] ${Math.round(ratio * 100)}%${message}`;
}

/** ` · 1,234 tokens · 85 tok/s` once the model has produced something. */
export function rate(tokens: number, ms: number): string {
  if (tokens <= 0) return '';
  const perSecond = ms >= 500 ? ` · ${Math.round(tokens / (ms / 1000))} tok/s` : '';
  return ` · ${NUMBER.format(tokens)} tokens${perSecond}`;
}

export function elapsed(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  return `${Math.floor(seconds / 60)}m${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
}

/** A frame counter that advances five times a second (each tick redraws the screen) while `active`, and costs nothing otherwise. */
function useTick(active: boolean): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTick((n) => n + 1), 200);
    return () => clearInterval(timer);
  }, [active]);
  return tick;
}
