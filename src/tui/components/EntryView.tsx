/**
 * One transcript entry, coloured by kind: user cyan, model green Markdown, tool yellow, system grey,
 * error red. Entry text is untrusted (model, tools, servers, files): shown through `visible`.
 */
import { Text } from 'ink';
import { memo } from 'react';
import { visible } from '../../util/terminal-text.js';
import type { Entry } from '../types.js';
import { type ClipProps, ClippedText, ModelText } from './LongText.js';
import { AnsweredQuestion } from './Question.js';
import { Reasoning } from './Reasoning.js';

/**
 * `renderRows`: how many rows of the entry's end the transcript lays out, estimated at `wrap`
 * chars; `maxRows`: the clip (CLIP_LINES on screen, more in the scrollback).
 */
export const EntryView = memo(function EntryView({
  entry,
  renderRows,
  wrap,
  maxRows,
}: { entry: Entry } & ClipProps) {
  const view = { renderRows, wrap, ...(maxRows === undefined ? {} : { maxRows }) };
  switch (entry.kind) {
    case 'question':
      return <AnsweredQuestion request={entry.request} answer={entry.answer} />;
    case 'title':
      return <Text bold>{visible(entry.text)}</Text>;
    case 'user':
      return <Text color="cyan">{`You › ${visible(entry.text)}`}</Text>;
    case 'model':
      return <ModelText text={entry.text} {...view} />;
    case 'reasoning':
      return <Reasoning entry={entry} {...view} />;
    case 'tool':
      return <ClippedText text={entry.text} color="yellow" {...view} />;
    case 'error':
      return <ClippedText text={entry.text} color="red" {...view} />;
    case 'system':
      return <SystemText text={entry.text} {...view} />;
  }
});

/** System output (command results): `× name: error` lines of /mcp stand out in red. */
function SystemText({ text: raw, ...view }: { text: string } & ClipProps) {
  const text = visible(raw);
  if (!text.includes('× ')) return <ClippedText text={raw} color="gray" {...view} />;
  const lines = text.split('\n');
  const parts = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    parts.push(
      <Text key={`l${i}`} color={line.startsWith('× ') ? 'red' : 'gray'}>
        {i > 0 ? '\n' : ''}
        {line}
      </Text>,
    );
  }
  return <Text color="gray">{parts}</Text>;
}
