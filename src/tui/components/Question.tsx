/**
 * A confirmation as the person sees it: the title (tool, and server for MCP tools), then the
 * arguments, command, coloured diff or URL; answered ones end with `Confirm execution? [y/N/a] → y`.
 * Shown exactly, control characters visible: a command's `\r` or `ESC[1A` cannot redraw the
 * question so the person approves something other than what runs.
 */
import { Box, Text } from 'ink';
import type { ApprovalAnswer, ApprovalRequest } from '../../permissions/types.js';
import { visible, visibleLine } from '../../util/terminal-text.js';
import { answerLetter, CONFIRM_PROMPT } from '../types.js';

/** Long details (a big diff) are cut so the question and its prompt stay on screen. */
export const DETAIL_LINES = 40;

export function QuestionBody({
  request,
  maxLines = DETAIL_LINES,
}: {
  request: ApprovalRequest;
  maxLines?: number;
}) {
  const lines = request.detail === '' ? [] : request.detail.split('\n');
  const shown = lines.slice(0, maxLines).map(visible);
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
      {lines.length > shown.length ? (
        <Text dimColor>{`(… ${lines.length - shown.length} more lines)`}</Text>
      ) : null}
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
        {CONFIRM_PROMPT} → <Text bold>{answerLetter(answer)}</Text>
      </Text>
    </Box>
  );
}
