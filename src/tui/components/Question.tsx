/**
 * A confirmation as the person sees it: the title (tool, and server for MCP tools), then the
 * arguments, command, coloured diff or URL; answered ones end with `Confirm execution? [y/N/a] → y`.
 * Shown exactly, control characters visible: a command's `\r` or `ESC[1A` cannot redraw the
 * question so the person approves something other than what runs. Padding is counted, not drawn
 * (`⟨59 blank lines⟩`), and what does not fit says so; the open question's Ctrl+T shows it whole.
 */
import { Box, Text } from 'ink';
import type { ApprovalAnswer, ApprovalRequest } from '../../permissions/types.js';
import { compactLine, cutTo } from '../../util/compact-text.js';
import { visible, visibleLine } from '../../util/terminal-text.js';
import { answerLetter, confirmPrompt } from '../types.js';

/** Long details (a big diff) are cut so the question and its prompt stay on screen. */
export const DETAIL_LINES = 40;

/** Blank lines in a row from which a command shows them as one counted line. */
const BLANK_LINES_RUN = 2;

export interface DetailLayout {
  /** The lines shown, visible (escapes as `^[`), padding counted (`⟨59 blank lines⟩`). */
  shown: string[];
  /** Lines left out at the end. */
  hidden: number;
  /** Anything left out or shortened: the exact text is a pager away. */
  cut: boolean;
}

/**
 * What of a question's detail fits in `maxLines` rows of `width`: a diff line by line; anything
 * else (a command, arguments, a URL) with runs of blank lines, long runs of one character or of
 * blanks and over-long words counted, so padding cannot push the end of a command out of view.
 */
export function layoutDetail(request: ApprovalRequest, maxLines: number, width: number): DetailLayout {
  const lines = request.detail === '' ? [] : request.detail.split('\n');
  if (request.kind === 'diff') {
    const shown = lines.slice(0, maxLines).map(visible);
    return { shown, hidden: lines.length - shown.length, cut: shown.length < lines.length };
  }
  const wide = Math.max(20, width);
  const compact: string[] = [];
  let cut = false;
  for (let i = 0; i < lines.length; ) {
    let blanks = 0;
    while (i + blanks < lines.length && /^[ \t]*$/.test(lines[i + blanks]!)) blanks++;
    if (blanks >= BLANK_LINES_RUN) {
      compact.push(`⟨${blanks} blank lines⟩`);
      cut = true;
      i += blanks;
      continue;
    }
    const raw = lines[i]!;
    const line = compactLine(raw, {
      blankRun: 16,
      charRun: 24,
      longWord: 2 * wide,
      wordKeep: wide,
      keepTabs: true,
    });
    if (line !== visible(raw)) cut = true;
    compact.push(line);
    i++;
  }
  const shown: string[] = [];
  let rows = 0;
  for (const line of compact) {
    const take = Math.max(1, Math.ceil(Array.from(line).length / wide));
    if (rows + take > maxLines && shown.length > 0) break;
    shown.push(take > maxLines ? cutTo(line, maxLines * wide) : line);
    if (take > maxLines) cut = true;
    rows += take;
  }
  const hidden = compact.length - shown.length;
  return { shown, hidden, cut: cut || hidden > 0 };
}

export function QuestionBody({
  request,
  maxLines = DETAIL_LINES,
  width = 100,
  pager = false,
}: {
  request: ApprovalRequest;
  maxLines?: number;
  /** Columns the detail wraps at (rows are counted with it). */
  width?: number;
  /** Ctrl+T opens the whole detail (the question on screen, not one in the transcript). */
  pager?: boolean;
}) {
  const { shown, hidden, cut } = layoutDetail(request, maxLines, width);
  const more = hidden > 0 ? `… ${hidden} more line${hidden === 1 ? '' : 's'}` : '';
  const note = pager && cut ? `${more ? `${more} · ` : 'shortened · '}Ctrl+T shows it whole` : more;
  return (
    <Box flexDirection="column">
      <Text bold color="yellow">
        {visibleLine(request.title)}
      </Text>
      {request.kind === 'diff' ? (
        <DiffLines lines={shown} />
      ) : request.kind === 'command' ? (
        <Text>{shown.map((line, i) => `${i === 0 ? '$ ' : '  '}${line}`).join('\n')}</Text>
      ) : request.kind === 'url' ? (
        <Text underline>{shown.join('\n')}</Text>
      ) : shown.length > 0 ? (
        <Text>{shown.join('\n')}</Text>
      ) : null}
      {note ? <Text dimColor={!pager} color={pager ? 'yellow' : undefined}>{`(${note})`}</Text> : null}
    </Box>
  );
}

function DiffLines({ lines }: { lines: string[] }) {
  // Consecutive lines of one colour share a Text, so a long diff stays a handful of nodes.
  const groups: Array<{ color: string | undefined; lines: string[] }> = [];
  for (const line of lines) {
    const color = diffColor(line);
    const last = groups[groups.length - 1];
    if (last && last.color === color) last.lines.push(line);
    else groups.push({ color, lines: [line] });
  }
  return (
    <Box flexDirection="column">
      {groups.map((group) => (
        <Text key={`${group.color}:${group.lines[0]}:${group.lines.length}`} color={group.color}>
          {group.lines.join('\n')}
        </Text>
      ))}
    </Box>
  );
}

function diffColor(line: string): string | undefined {
  if (line.startsWith('+++') || line.startsWith('---')) return undefined;
  if (line.startsWith('+')) return 'green';
  if (line.startsWith('-')) return 'red';
  if (line.startsWith('@@')) return 'cyan';
  return undefined;
}

/** A question already answered, as the transcript keeps it. */
export function AnsweredQuestion({ request, answer }: { request: ApprovalRequest; answer: ApprovalAnswer }) {
  return (
    <Box flexDirection="column">
      <QuestionBody request={request} />
      <Text>
        {confirmPrompt(request)} → <Text bold>{answerLetter(answer)}</Text>
      </Text>
    </Box>
  );
}
