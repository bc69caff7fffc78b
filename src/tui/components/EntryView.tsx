/** One transcript entry, coloured by kind: user cyan, model green Markdown, tool yellow, system grey, error red. */
import { Text } from 'ink';
import { memo } from 'react';
import type { Entry } from '../types.js';
import { Markdown } from './Markdown.js';
import { AnsweredQuestion } from './Question.js';

export const EntryView = memo(function EntryView({ entry }: { entry: Entry }) {
  switch (entry.kind) {
    case 'question':
      return <AnsweredQuestion request={entry.request} answer={entry.answer} />;
    case 'title':
      return <Text bold>{entry.text}</Text>;
    case 'user':
      return <Text color="cyan">{`You › ${entry.text}`}</Text>;
    case 'model':
      return <Markdown text={entry.text} />;
    case 'tool':
      return <Text color="yellow">{entry.text}</Text>;
    case 'error':
      return <Text color="red">{entry.text}</Text>;
    case 'system':
      return <SystemText text={entry.text} />;
  }
});

/** System output (command results): `× name: error` lines of /mcp stand out in red. */
function SystemText({ text }: { text: string }) {
  if (!text.includes('× ')) return <Text color="gray">{text}</Text>;
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
