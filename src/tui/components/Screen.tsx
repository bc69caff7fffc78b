/**
 * The full-screen layout: transcript (with activity and an open question under it) beside the
 * 28-column panel, hidden under 60 columns; a `─` rule; the input line. Owns only view state:
 * the input buffer, the scroll position, and whether a server's request — or a tool's question
 * that appeared while the person was typing — has the focus (then the person's draft waits aside
 * while a form uses the input line). At start-up the folder-trust question takes the question's
 * place (its keys: trust-keys.ts). A command's list (`/rewind`) takes it too, and the keys
 * (choice-keys.ts); Esc Esc on an empty input line while nothing runs opens `/rewind`. The rule's
 * hint and Tab's suggestions under the input: hint-line.tsx.
 */
import { Box, Text } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { ApprovalRequest } from '../../permissions/types.js';
import { trustQuestionLines } from '../../trust/describe.js';
import { useChoiceList, useEscapeTwice } from '../choice-keys.js';
import { renderBudget, WRAP } from '../clip.js';
import { hintText, Rule, useMentionCompletion } from '../hint-line.js';
import { useKeys } from '../hooks.js';
import { type Choice, handleKey, type KeyTarget, type ServerRequestFocus } from '../key-actions.js';
import type { KeyEvent } from '../keys.js';
import { type Buffer, EMPTY, fromText } from '../line-editor.js';
import { type PagerOpen, pagerMove, pagerTarget, pagerText } from '../pager-keys.js';
import { slashCandidates } from '../slash-complete.js';
import { trustKey, trustMode, useTrustKeys } from '../trust-keys.js';
import { openPrompt, type SessionSnapshot } from '../types.js';
import { Activity } from './Activity.js';
import { CHOICE_HINT, ChoiceList } from './ChoiceList.js';
import { FormBody } from './FormBody.js';
import { InputLine } from './InputLine.js';
import { Pager, pagerRows } from './Pager.js';
import { Panel } from './Panel.js';
import { layoutDetail, QuestionBody } from './Question.js';
import { ChoiceLine, RequestHint } from './ServerRequest.js';
import { Suggestions } from './Suggestions.js';
import { Transcript } from './Transcript.js';
import { TrustChoiceLine, TrustKeysLine, TrustQuestionBody, trustKeysRows } from './TrustQuestion.js';

/** Below this width the panel is hidden: at 80 columns the transcript needs every column. */
export const PANEL_MIN_COLUMNS = 90;

export interface ScreenProps {
  snapshot: SessionSnapshot;
  target: KeyTarget;
  cols: number;
  rows: number;
}

/** What has the focus: a server's question (with the selected choice) or form, by identity. */
interface Focus {
  on: ApprovalRequest | number;
  choice: Choice;
}

export function Screen({ snapshot, target, cols, rows }: ScreenProps) {
  const [buffer, setBufferState] = useState<Buffer>(EMPTY);
  const [scroll, setScrollState] = useState(0);
  const [focus, setFocusState] = useState<Focus | undefined>(undefined);
  /** The pager (Ctrl+T): which text, and its first row shown. */
  const [pager, setPagerState] = useState<PagerOpen | undefined>(undefined);
  const trustKeys = useTrustKeys(snapshot.trust);
  const choice = snapshot.choice;
  const list = useChoiceList(choice, target);
  const escapes = useEscapeTwice(target);
  // A tool's question takes keys as answers; a server's own request only an explicit choice. So
  // does a tool's question that appears while the person is typing: a queued message such as
  // "yes, and…" or "add tests" must not answer y or a(lways) with its first letter.
  const appeared = useRef<{ question: ApprovalRequest | undefined; whileTyping: boolean }>({
    question: undefined,
    whileTyping: false,
  });
  const asked = snapshot.questionExplicit ? undefined : snapshot.question;
  if (asked !== appeared.current.question) {
    appeared.current = { question: asked, whileTyping: asked !== undefined && buffer.text !== '' };
  }
  const toolQuestion = appeared.current.whileTyping ? undefined : asked;
  const serverQuestion = snapshot.questionExplicit
    ? snapshot.question
    : appeared.current.whileTyping
      ? asked
      : undefined;
  const formId = snapshot.question ? undefined : snapshot.form?.id;
  const requestOn = serverQuestion ?? formId;
  const focused = requestOn !== undefined && focus?.on === requestOn;
  const formFocused = focused && formId !== undefined;
  const request: ServerRequestFocus | undefined = serverQuestion
    ? { kind: 'question', question: serverQuestion, focused, choice: focused ? focus!.choice : 0 }
    : formId !== undefined
      ? { kind: 'form', focused }
      : undefined;
  // Refs as well as state: one input chunk can carry several keys ("hi\r"), and each must see
  // the effect of the one before it, not the last render's value.
  const latest = useRef({
    buffer,
    scroll,
    question: toolQuestion,
    request,
    /** The person's own input, kept aside while a form uses the input line. */
    draft: undefined as Buffer | undefined,
    pager: undefined as PagerOpen | undefined,
    entries: snapshot.entries,
    trust: snapshot.trust,
    open: snapshot.question,
    busy: false,
  });
  latest.current.busy = snapshot.busy;
  latest.current.entries = snapshot.entries;
  latest.current.trust = snapshot.trust;
  latest.current.open = snapshot.question;
  latest.current.question = toolQuestion;
  latest.current.request = request;
  const measured = useRef({ visible: 0, content: 0 });
  // A rewind took entries off the transcript: what was scrolled to may be gone, follow the end.
  const rewinds = useRef(snapshot.rewinds);
  if (snapshot.rewinds !== rewinds.current) {
    rewinds.current = snapshot.rewinds;
    latest.current.scroll = 0;
    setScrollState(0);
  }
  const formKey = formFocused ? snapshot.form?.key : undefined;
  const formPrefill = snapshot.form?.prefill ?? '';

  const setBuffer = (next: Buffer) => {
    latest.current.buffer = next;
    setBufferState(next);
  };
  // A command put text into the input line (a rewound message comes back to be edited).
  const fillId = snapshot.inputFill?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per fill, by its id
  useEffect(() => {
    if (snapshot.inputFill === undefined) return;
    setBuffer(fromText(snapshot.inputFill.text));
  }, [fillId]);
  const restoreDraft = () => {
    const draft = latest.current.draft;
    if (draft === undefined) return;
    latest.current.draft = undefined;
    setBuffer(draft);
  };
  const setFocus = (on: boolean) => {
    const current = latest.current.request;
    if (!current || requestOn === undefined) return;
    if (current.kind === 'form' && on) {
      latest.current.draft = latest.current.buffer;
      setBuffer(fromText(formPrefill));
    } else if (current.kind === 'form') {
      restoreDraft();
    }
    latest.current.request =
      current.kind === 'form' ? { ...current, focused: on } : { ...current, focused: on, choice: 0 };
    setFocusState(on ? { on: requestOn, choice: 0 } : undefined);
  };
  const setChoice = (choice: Choice) => {
    const current = latest.current.request;
    if (current?.kind !== 'question' || requestOn === undefined) return;
    latest.current.request = { ...current, choice };
    setFocusState({ on: requestOn, choice });
  };
  const scrollBy = (pages: 1 | -1 | 0) => {
    const { visible, content } = measured.current;
    const step = Math.max(1, visible - 1);
    const max = Math.max(0, content - visible);
    const next = pages === 0 ? 0 : Math.min(max, Math.max(0, latest.current.scroll + pages * step));
    latest.current.scroll = next;
    setScrollState(next);
  };
  // Each step of a focused form starts the input line with the field's default. Effects run after
  // the frame: keys in between may already have given the focus back (Enter, Tab), and then the
  // restored draft stays.
  useEffect(() => {
    if (formKey === undefined || latest.current.request?.kind !== 'form' || !latest.current.request.focused)
      return;
    latest.current.buffer = fromText(formPrefill);
    setBufferState(latest.current.buffer);
  }, [formKey, formPrefill]);
  // The form is done (or gave the focus back): the person's own input returns.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the focus leaves a form
  useEffect(() => {
    if (!formFocused) restoreDraft();
  }, [formFocused]);
  // The rule and the input line (or the trust question's answer line) stay under the pager.
  const bottomRows = snapshot.trust ? trustKeysRows(cols) : 1;
  const pagerHeight = Math.max(3, rows - 1 - bottomRows);
  // The trust question has the whole width: the panel has nothing to say before the app is up.
  const panelShown = cols >= PANEL_MIN_COLUMNS && !snapshot.trust;
  const pagerWidth = Math.max(10, cols - (panelShown ? 29 : 0));
  const questionLines = Math.max(3, rows - 12);
  const setPager = (next: PagerOpen | undefined) => {
    latest.current.pager = next;
    setPagerState(next);
  };
  const pagerKey = (event: KeyEvent, open: PagerOpen) => {
    const text = pagerText(open, latest.current.entries);
    const total = text === undefined ? 0 : pagerRows(text, pagerWidth).length;
    const move = pagerMove(event, open.top, total, pagerHeight - 1);
    if (move === 'close') setPager(undefined);
    else if (move !== undefined) setPager({ ...open, top: move });
  };
  // Ctrl+T: the trust question's full list; an open question's whole detail when it is cut;
  // else the newest long entry.
  const openPager = () => {
    const { trust, open } = latest.current;
    if (trust) {
      setPager({ text: trustQuestionLines(trust.trust).join('\n'), top: 0 });
      return;
    }
    if (open && layoutDetail(open, questionLines, pagerWidth).cut) {
      setPager({ text: `${open.title}\n${open.detail}`, top: 0 });
      return;
    }
    const id = pagerTarget(latest.current.entries);
    if (id !== undefined) setPager({ id, top: 0 });
  };
  const { suggestions, complete, keySeen } = useMentionCompletion(
    target,
    () => latest.current.buffer,
    setBuffer,
  );
  useKeys((event) => {
    keySeen(event);
    const open = latest.current.pager;
    if (open && !(event.type === 'ctrl' && event.letter === 'c')) {
      pagerKey(event, open);
      return;
    }
    if (
      latest.current.trust &&
      trustKey(event, {
        state: trustKeys.get(),
        typing: latest.current.buffer.text !== '',
        answer: (answer) => target.answerTrust?.(answer),
        setState: trustKeys.set,
        openPager,
      })
    ) {
      return;
    }
    if (list.key(event)) return;
    const current = latest.current.request;
    const idleAndEmpty =
      !latest.current.busy &&
      latest.current.buffer.text === '' &&
      latest.current.open === undefined &&
      current === undefined &&
      !latest.current.trust;
    if (escapes.key(event, idleAndEmpty)) return;
    handleKey(event, {
      form: latest.current.question === undefined && current?.kind === 'form' && current.focused,
      target,
      question: latest.current.question,
      request: current,
      setFocus,
      setChoice,
      answered: () => {
        latest.current.question = undefined;
        latest.current.request = undefined;
      },
      buffer: latest.current.buffer,
      setBuffer,
      scroll: scrollBy,
      openPager,
      complete,
    });
  });
  const shownInPager = pager === undefined ? undefined : pagerText(pager, snapshot.entries);
  const trustState = trustKeys.get();
  const trustShown = snapshot.trust ? trustMode(trustState, buffer.text !== '') : undefined;

  // A command name being typed: the commands it matches (Tab completes).
  const candidates =
    toolQuestion === undefined ? slashCandidates(buffer.text, target.commandNames?.() ?? []) : [];
  const hint = hintText({
    scroll,
    candidates,
    busy: snapshot.busy,
    rewindArmed: escapes.armed && !choice,
    cols,
  });
  return (
    <Box flexDirection="column" width={cols} height={rows}>
      <Box flexDirection="row" flexGrow={1} flexShrink={1} overflowY="hidden">
        {shownInPager !== undefined && pager ? (
          <Box flexDirection="column" flexGrow={1} flexShrink={1}>
            <Pager text={shownInPager} top={pager.top} height={pagerHeight} width={pagerWidth} />
          </Box>
        ) : null}
        <Box
          flexDirection="column"
          flexGrow={1}
          flexShrink={1}
          display={shownInPager !== undefined ? 'none' : 'flex'}
        >
          <Transcript
            entries={snapshot.entries}
            scroll={scroll}
            renderRows={renderBudget(rows, scroll)}
            wrap={Math.min(WRAP, pagerWidth)}
            onMeasure={(visible, content) => {
              measured.current = { visible, content };
            }}
          />
          {/* What runs now and an open question keep their rows; the transcript gives way. */}
          <Box flexDirection="column" flexShrink={0}>
            <Activity
              busy={snapshot.busy}
              turnStartedAt={snapshot.turnStartedAt}
              tokens={snapshot.turnOutputTokens}
              tools={snapshot.tools}
              queued={snapshot.queued}
              waitingForAnswer={snapshot.question !== undefined}
            />
            {choice ? (
              <ChoiceList
                choice={choice}
                selected={list.selected}
                maxLines={questionLines}
                width={pagerWidth}
              />
            ) : snapshot.trust && trustShown ? (
              <TrustQuestionBody
                view={snapshot.trust}
                width={pagerWidth - 1}
                rows={Math.max(5, rows - 3 - bottomRows - snapshot.queued.length)}
                mode={trustShown}
              />
            ) : snapshot.question ? (
              <QuestionBody request={snapshot.question} maxLines={questionLines} width={pagerWidth} pager />
            ) : snapshot.form ? (
              <FormBody form={snapshot.form} />
            ) : null}
            {request ? <RequestHint kind={request.kind} focused={focused} /> : null}
          </Box>
        </Box>
        {panelShown ? <Panel data={snapshot.panel} /> : null}
      </Box>
      {/* The rule and the input never give up rows: the transcript above shrinks instead. */}
      <Box flexDirection="column" flexShrink={0}>
        <Rule cols={cols} hint={hint} />
        {choice ? (
          <Text color="yellow">{CHOICE_HINT}</Text>
        ) : trustShown === 'focused' ? (
          <TrustChoiceLine choice={trustState.choice} />
        ) : trustShown === 'keys' ? (
          <TrustKeysLine />
        ) : request?.kind === 'question' && focused ? (
          <ChoiceLine choice={request.choice} />
        ) : (
          <InputLine
            buffer={buffer}
            question={toolQuestion !== undefined}
            prompt={toolQuestion ? openPrompt(toolQuestion) : undefined}
          />
        )}
        {suggestions.length > 0 ? <Suggestions items={suggestions} width={cols} /> : null}
      </Box>
    </Box>
  );
}
