/**
 * The full-screen layout: transcript (with activity and an open question under it) beside the
 * 28-column panel, hidden under 60 columns; a `─` rule; the input line. Owns only view state:
 * the input buffer and the scroll position.
 */
import { Box, Text } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { useKeys } from '../hooks.js';
import { handleKey, type KeyTarget } from '../key-actions.js';
import { type Buffer, EMPTY, fromText } from '../line-editor.js';
import type { SessionSnapshot } from '../types.js';
import { Activity } from './Activity.js';
import { FormBody } from './FormBody.js';
import { InputLine } from './InputLine.js';
import { Panel } from './Panel.js';
import { QuestionBody } from './Question.js';
import { Transcript } from './Transcript.js';

export const PANEL_MIN_COLUMNS = 60;

export interface ScreenProps {
  snapshot: SessionSnapshot;
  target: KeyTarget;
  cols: number;
  rows: number;
}

export function Screen({ snapshot, target, cols, rows }: ScreenProps) {
  const [buffer, setBufferState] = useState<Buffer>(EMPTY);
  const [scroll, setScrollState] = useState(0);
  // Refs as well as state: one input chunk can carry several keys ("hi\r"), and each must see
  // the effect of the one before it, not the last render's value.
  const latest = useRef({ buffer, scroll, question: snapshot.question });
  latest.current.question = snapshot.question;
  const measured = useRef({ visible: 0, content: 0 });
  const formKey = snapshot.question ? undefined : snapshot.form?.key;
  const formPrefill = snapshot.form?.prefill ?? '';

  const setBuffer = (next: Buffer) => {
    latest.current.buffer = next;
    setBufferState(next);
  };
  const scrollBy = (pages: 1 | -1 | 0) => {
    const { visible, content } = measured.current;
    const step = Math.max(1, visible - 1);
    const max = Math.max(0, content - visible);
    const next = pages === 0 ? 0 : Math.min(max, Math.max(0, latest.current.scroll + pages * step));
    latest.current.scroll = next;
    setScrollState(next);
  };
  // Each form step starts the input line with the field's default (or what was typed before).
  useEffect(() => {
    if (formKey === undefined) return;
    latest.current.buffer = fromText(formPrefill);
    setBufferState(latest.current.buffer);
  }, [formKey, formPrefill]);
  useKeys((event) =>
    handleKey(event, {
      form: latest.current.question === undefined && formKey !== undefined,
      target,
      question: latest.current.question,
      answered: () => {
        latest.current.question = undefined;
      },
      buffer: latest.current.buffer,
      setBuffer,
      scroll: scrollBy,
    }),
  );

  const hint =
    scroll > 0 ? 'scrolled up · PgDn for newer' : snapshot.busy ? 'Esc cancels · Enter queues' : '';
  return (
    <Box flexDirection="column" width={cols} height={rows}>
      <Box flexDirection="row" flexGrow={1} flexShrink={1} overflow="hidden">
        <Box flexDirection="column" flexGrow={1} flexShrink={1}>
          <Transcript
            entries={snapshot.entries}
            scroll={scroll}
            onMeasure={(visible, content) => {
              measured.current = { visible, content };
            }}
          />
          {/* What runs now and an open question keep their rows; the transcript gives way. */}
          <Box flexDirection="column" flexShrink={0}>
            <Activity
              busy={snapshot.busy}
              turnStartedAt={snapshot.turnStartedAt}
              tools={snapshot.tools}
              queued={snapshot.queued}
              waitingForAnswer={snapshot.question !== undefined}
            />
            {snapshot.question ? (
              <QuestionBody request={snapshot.question} maxLines={Math.max(3, rows - 12)} />
            ) : snapshot.form ? (
              <FormBody form={snapshot.form} />
            ) : null}
          </Box>
        </Box>
        {cols >= PANEL_MIN_COLUMNS ? <Panel data={snapshot.panel} /> : null}
      </Box>
      {/* The rule and the input never give up rows: the transcript above shrinks instead. */}
      <Box flexDirection="column" flexShrink={0}>
        <Rule cols={cols} hint={hint} />
        <InputLine buffer={buffer} question={snapshot.question !== undefined} />
      </Box>
    </Box>
  );
}

function Rule({ cols, hint }: { cols: number; hint: string }) {
  const label = hint && hint.length + 4 < cols ? `── ${hint} ` : '';
  return <Text dimColor>{label + '─'.repeat(Math.max(0, cols - label.length))}</Text>;
}
