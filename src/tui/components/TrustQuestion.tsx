/**
 * The folder-trust question on the start-up screen: the folder and what it declares, summarised
 * to fit (trust/question-summary.ts: counts per kind, one line per entry, padding counted), and the
 * answer line in place of the input line — or, while the input line holds text or the question
 * has only just appeared, a hint that keys stay in the input line (trust-keys.ts).
 */
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { trustQuestionSummary } from '../../trust/question-summary.js';
import type { TrustMode } from '../trust-keys.js';
import type { TrustQuestionView } from '../types.js';

export const TRUST_PROMPT = 'Trust this folder?';

const KEYS_LINE =
  'y = yes, from now on · n = not now, start without them · Ctrl+T = full list · Ctrl+C = quit';

/** Rows the answer line takes at `cols` (it wraps on a narrow terminal). */
export function trustKeysRows(cols: number): number {
  return Math.ceil((TRUST_PROMPT.length + 1 + KEYS_LINE.length) / Math.max(1, cols));
}

const HINTS: Record<Exclude<TrustMode, 'keys'>, string> = {
  waiting: '(the answer keys work in a moment)',
  typing: 'Tab to answer (until then your keys stay in the input line)',
  focused: '←/→ choose · Enter confirms · Tab back to the input line · Esc = not now',
};

export function TrustQuestionBody({
  view,
  width,
  rows,
  mode,
}: {
  view: TrustQuestionView;
  width: number;
  /** Rows the question may take, its hint line included. */
  rows: number;
  mode: TrustMode;
}) {
  const summary = useMemo(
    () => trustQuestionSummary(view.trust, { width, rows: rows - 1 }),
    [view, width, rows],
  );
  return (
    <Box flexDirection="column">
      <Text>{summary.lines.join('\n')}</Text>
      {mode === 'keys' ? null : <Text color="yellow">{`${TRUST_PROMPT} ${HINTS[mode]}`}</Text>}
    </Box>
  );
}

/** In place of the input line while single keys answer. */
export function TrustKeysLine() {
  return (
    <Text>
      <Text bold color="yellow">{`${TRUST_PROMPT} `}</Text>
      {KEYS_LINE}
    </Text>
  );
}

function Option({ label, selected }: { label: string; selected: boolean }) {
  return selected ? <Text inverse bold>{`[${label}]`}</Text> : <Text>{` ${label} `}</Text>;
}

/** In place of the input line while the question has the focus. */
export function TrustChoiceLine({ choice }: { choice: 0 | 1 }) {
  return (
    <Text>
      <Text bold color="yellow">{`${TRUST_PROMPT} `}</Text>
      <Option label="Not now" selected={choice === 0} /> <Option label="Trust" selected={choice === 1} />
    </Text>
  );
}
