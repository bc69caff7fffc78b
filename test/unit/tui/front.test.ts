/**
 * The start-up front (tui/front.ts): what the screen talks to before the session exists. Lines
 * sent meanwhile wait (shown as queued) and reach the session in order; notices too; Ctrl+C and
 * Ctrl+D leave; once the session is there, everything goes to it.
 */
import { describe, expect, it } from 'vitest';
import { PANEL_ORDER } from '../../../src/extensions/types.js';
import { type FrontSession, GREETING, SessionFront } from '../../../src/tui/front.js';
import { InputHistory } from '../../../src/tui/history.js';
import { panelRows } from '../../../src/tui/panel-lines.js';
import type { LineKind, SessionSnapshot } from '../../../src/tui/types.js';
import { recordingTarget, snapshot } from './helpers.js';

function fakeSession(): FrontSession & {
  notices: Array<[string, LineKind | undefined]>;
  submitted: string[];
  calls: string[];
  view: SessionSnapshot;
  listeners: Set<() => void>;
} {
  const target = recordingTarget();
  const listeners = new Set<() => void>();
  const session = {
    ...target,
    notices: [] as Array<[string, LineKind | undefined]>,
    view: snapshot({ queued: [] }),
    listeners,
    notice(text: string, kind?: LineKind) {
      session.notices.push([text, kind]);
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    snapshot: () => session.view,
  };
  return session;
}

describe('SessionFront', () => {
  it('shows the greeting and a starting panel, and queues lines sent before the session', () => {
    const front = new SessionFront(new InputHistory(undefined));
    let changes = 0;
    front.subscribe(() => changes++);
    expect(front.snapshot().entries.map((entry) => entry.kind === 'title' && entry.text)).toContain(GREETING);
    expect(panelRows(front.snapshot().panel)).toEqual([
      { label: 'Model', value: 'starting…', order: PANEL_ORDER.model },
    ]);

    front.submit('first');
    front.submit('   ');
    front.submit('/help');
    expect(front.snapshot().queued).toEqual(['first', '/help']);
    expect(changes).toBe(2);
  });

  it('hands queued lines and notices to the session in order, then follows it', () => {
    const front = new SessionFront(new InputHistory(undefined));
    front.notice('a warning', 'error');
    front.submit('first');
    front.submit('second');
    let changes = 0;
    front.subscribe(() => changes++);

    const session = fakeSession();
    front.attach(session);
    expect(session.notices).toEqual([['a warning', 'error']]);
    expect(session.submitted).toEqual(['first', 'second']);
    expect(front.snapshot()).toBe(session.view);
    expect(changes).toBe(1);

    for (const listener of session.listeners) listener();
    expect(changes).toBe(2);
    front.submit('third');
    front.interrupt();
    front.cancel();
    front.notice('later');
    expect(session.submitted).toEqual(['first', 'second', 'third']);
    expect(session.calls).toEqual(['interrupt', 'cancel']);
    expect(session.notices.at(-1)).toEqual(['later', 'system']);
  });

  it('Ctrl+C or Ctrl+D before the session leaves; lines sent after that are dropped', async () => {
    const front = new SessionFront(new InputHistory(undefined));
    front.interrupt();
    await front.exited;
    front.submit('too late');
    expect(front.snapshot().queued).toEqual([]);

    const other = new SessionFront(new InputHistory(undefined));
    other.requestExit();
    await other.exited;
  });

  it('a leave that coincides with the session arriving still leaves', () => {
    const front = new SessionFront(new InputHistory(undefined));
    front.requestExit();
    const session = fakeSession();
    front.attach(session);
    expect(session.calls).toEqual(['exit']);
  });
});
