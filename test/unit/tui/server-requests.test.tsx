/**
 * A server's own request on screen (a sampling question, an elicitation form) is never answered
 * by a key typed for the input line: letters and Enter keep editing and sending the person's
 * input; Tab focuses the request; a focused question is answered with ←/→ and Enter (Decline
 * first); a focused form uses the input line, and the person's draft comes back after it.
 */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest } from '../../../src/permissions/types.js';
import { Screen } from '../../../src/tui/components/Screen.js';
import type { FormView } from '../../../src/tui/elicitor.js';
import type { SessionSnapshot } from '../../../src/tui/types.js';
import { plain, recordingTarget, snapshot } from './helpers.js';

const rendered: Array<{ unmount(): void }> = [];
afterEach(() => {
  for (const instance of rendered.splice(0)) instance.unmount();
});

const sampling: ApprovalRequest = {
  toolName: 'sampling',
  title: 'MCP server asker asks the model to answer (sampling/createMessage)',
  detail: 'user: a haiku please',
  kind: 'mcp',
  server: 'asker',
};

const form: FormView = {
  id: 1,
  key: '1:0',
  server: 'asker',
  message: 'Who is asking?',
  fields: [{ name: 'name', label: 'Name', type: 'string', required: true }],
  values: {},
  index: 0,
  prefill: 'default name',
};

const TAB = '\t';
const RIGHT = '\u001b[C';

/**
 * Keys are handled as they are written; the frame (and the render's effects) follow
 * asynchronously, hence a poll. Its bound only guards a stuck render: vi.waitFor's default of 1 s
 * failed these tests on a busy machine, where a first render alone can take longer.
 */
const until = (check: () => void) => vi.waitFor(check, { timeout: 45_000 });

function open(state: Partial<SessionSnapshot>) {
  const target = recordingTarget();
  const instance = render(<Screen snapshot={snapshot(state)} target={target} cols={100} rows={20} />);
  rendered.push(instance);
  const lastLine = () => plain(instance.lastFrame()).trimEnd().split('\n').at(-1) ?? '';
  const type = async (keys: string) => {
    instance.stdin.write(keys);
  };
  return { target, instance, lastLine, type };
}

describe('a server’s question (sampling)', () => {
  const state = { question: sampling, questionExplicit: true };

  it('takes no letter as an answer: the keys edit the input line, Enter sends it', async () => {
    const { target, lastLine, type } = open(state);
    for (const key of ['a', 'y', 'b']) await type(key);
    await until(() => expect(lastLine()).toBe('› ayb'));
    await type('\r');
    expect(target.answers).toEqual([]);
    expect(target.submitted).toEqual(['ayb']);
  });

  it('says how to answer it; Tab focuses Decline, → Allow, Enter answers', async () => {
    const { target, instance, lastLine, type } = open(state);
    expect(plain(instance.lastFrame())).toContain('Tab to answer this request');
    await type(TAB);
    await until(() => expect(lastLine()).toBe('Answer the request: [Decline]  Allow'));
    expect(plain(instance.lastFrame())).toContain('←/→ choose · Enter confirms');
    await type('y');
    expect(target.answers).toEqual([]);
    await type(RIGHT);
    await until(() => expect(lastLine()).toBe('Answer the request:  Decline  [Allow]'));
    await type('\r');
    expect(target.answers).toEqual(['yes']);
    expect(target.submitted).toEqual([]);
  });

  it('Enter on the first choice declines; Tab again gives the input line back', async () => {
    const first = open(state);
    await first.type(TAB);
    await first.type('\r');
    expect(first.target.answers).toEqual(['no']);

    const second = open(state);
    await second.type('hi');
    await second.type(TAB);
    await second.type(TAB);
    await until(() => expect(second.lastLine()).toBe('› hi'));
    expect(second.target.answers).toEqual([]);
  });
});

describe('a server’s form (elicitation)', () => {
  it('keeps the input line the person’s until Tab; then the form uses it, and the draft returns', async () => {
    const { target, lastLine, type } = open({ form });
    await type('my draft');
    await until(() => expect(lastLine()).toBe('› my draft'));
    await type(TAB);
    await until(() => expect(lastLine()).toBe('› default name'));
    await type('\r');
    expect(target.calls).toEqual(['form:default name']);
    await type(TAB);
    await until(() => expect(lastLine()).toBe('› my draft'));
    await type('\r');
    expect(target.submitted).toEqual(['my draft']);
  });

  it('gives the draft back when Enter and Tab come right after the focusing frame, before its effects', async () => {
    // What a busy machine did to the test above: keys between a render's frame and its effects.
    const { target, instance, lastLine, type } = open({ form });
    await type('my draft');
    await until(() => expect(lastLine()).toBe('› my draft'));
    const draw = instance.stdout.write;
    let pressed = false;
    instance.stdout.write = (frame: string) => {
      draw(frame);
      if (pressed || !plain(frame).trimEnd().endsWith('› default name')) return;
      pressed = true;
      queueMicrotask(() => {
        instance.stdin.write('\r');
        instance.stdin.write(TAB);
      });
    };
    await type(TAB);
    await until(() => expect(target.calls).toEqual(['form:default name']));
    await until(() => expect(lastLine()).toBe('› my draft'));
  });
});

describe('a tool’s question that appears while the person is typing', () => {
  const shell: ApprovalRequest = {
    toolName: 'run_shell',
    title: 'run_shell',
    detail: 'rm -rf build',
    kind: 'command',
  };

  function typingThenAsked() {
    const target = recordingTarget();
    const screen = (state: Partial<SessionSnapshot>) => (
      <Screen snapshot={snapshot(state)} target={target} cols={100} rows={20} />
    );
    const instance = render(screen({ busy: true }));
    rendered.push(instance);
    const lastLine = () => plain(instance.lastFrame()).trimEnd().split('\n').at(-1) ?? '';
    const ask = () => instance.rerender(screen({ busy: true, question: shell }));
    return { target, instance, lastLine, ask, type: (keys: string) => instance.stdin.write(keys) };
  }

  it('is not answered by the letters of the queued message: "yes" and "add" stay in the input', async () => {
    const { target, instance, lastLine, ask, type } = typingThenAsked();
    type('x');
    await until(() => expect(lastLine()).toBe('› x'));
    ask();
    await until(() => expect(plain(instance.lastFrame())).toContain('Tab to answer this request'));
    for (const key of [' ', 'y', 'e', 's', ' ', 'a', 'd', 'd']) type(key);
    await until(() => expect(lastLine()).toBe('› x yes add'));
    expect(target.answers).toEqual([]);
  });

  it('is answered after Tab with ←/→ and Enter', async () => {
    const { target, lastLine, ask, type } = typingThenAsked();
    type('n');
    await until(() => expect(lastLine()).toBe('› n'));
    ask();
    await until(() => expect(lastLine()).toBe('› n'));
    type(TAB);
    await until(() => expect(lastLine()).toBe('Answer the request: [Decline]  Allow'));
    type(RIGHT);
    await until(() => expect(lastLine()).toBe('Answer the request:  Decline  [Allow]'));
    type('\r');
    expect(target.answers).toEqual(['yes']);
  });

  it('with an empty input line, y answers at once as before', async () => {
    const { target, instance, ask, type } = typingThenAsked();
    ask();
    await until(() => expect(plain(instance.lastFrame())).toContain('rm -rf build'));
    type('y');
    expect(target.answers).toEqual(['yes']);
  });
});
