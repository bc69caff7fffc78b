/**
 * A server's own request (sampling question, elicitation form) as the person sees it: a hint that
 * says how to answer it — Tab first, since it may have appeared mid-typing — and, once focused,
 * the question's choices in place of the input line, the selected one in brackets.
 */
import { Text } from 'ink';
import type { Choice } from '../key-actions.js';

const HINTS = {
  question: {
    idle: 'Tab to answer this request (until then your keys stay in the input line)',
    focused: '←/→ choose · Enter confirms · Tab back to the input line · Esc declines',
  },
  form: {
    idle: 'Tab to fill in this form (until then your keys stay in the input line)',
    focused: 'Tab back to the input line',
  },
} as const;

export function RequestHint({ kind, focused }: { kind: 'question' | 'form'; focused: boolean }) {
  return <Text color="yellow">{HINTS[kind][focused ? 'focused' : 'idle']}</Text>;
}

function Option({ label, selected }: { label: string; selected: boolean }) {
  return selected ? <Text inverse bold>{`[${label}]`}</Text> : <Text>{` ${label} `}</Text>;
}

export function ChoiceLine({ choice }: { choice: Choice }) {
  return (
    <Text>
      <Text color="yellow">{'Answer the request: '}</Text>
      <Option label="Decline" selected={choice === 0} /> <Option label="Allow" selected={choice === 1} />
    </Text>
  );
}
