/**
 * Confirmations: the open question (MCP title with its server, arguments, coloured diff) with the
 * prompt in the input line, the keys that answer it, the answer recorded in the transcript, and
 * the approver's queue.
 */
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest } from '../../../src/permissions/types.js';
import { TuiApprover } from '../../../src/tui/approver.js';
import { AnsweredQuestion, QuestionBody } from '../../../src/tui/components/Question.js';
import { Screen } from '../../../src/tui/components/Screen.js';
import { colourOf, drawInColour, plain, recordingTarget, snapshot } from './helpers.js';

drawInColour();

const rendered: Array<{ unmount(): void }> = [];
afterEach(() => {
  for (const instance of rendered.splice(0)) instance.unmount();
});

const mcpRequest: ApprovalRequest = {
  toolName: 'mcp_demo_word_count',
  title: 'About to call MCP tool: mcp_demo_word_count (from server demo)',
  detail: JSON.stringify({ text: 'Model Context Protocol' }, null, 2),
  kind: 'mcp',
  server: 'demo',
};

const diffRequest: ApprovalRequest = {
  toolName: 'patch',
  title: 'About to patch notes.txt',
  detail: ['--- a/notes.txt', '+++ b/notes.txt', '@@ -1 +1 @@', '-hello world', '+hello agent'].join('\n'),
  kind: 'diff',
};

function show(node: ReactElement) {
  const instance = render(node);
  rendered.push(instance);
  return instance;
}

describe('the question view', () => {
  it('names the MCP tool and its server, then the arguments', () => {
    const text = plain(show(<QuestionBody request={mcpRequest} />).lastFrame());
    expect(text.split('\n')).toEqual([
      'About to call MCP tool: mcp_demo_word_count (from server demo)',
      '{',
      '  "text": "Model Context Protocol"',
      '}',
    ]);
  });

  it('colours a diff: additions green, removals red, file headers plain', () => {
    const frame = show(<QuestionBody request={diffRequest} />).lastFrame() ?? '';
    expect(colourOf(frame, '+hello agent')).toBe('green');
    expect(colourOf(frame, '-hello world')).toBe('red');
    expect(colourOf(frame, '@@ -1 +1 @@')).toBe('cyan');
    expect(colourOf(frame, '+++ b/notes.txt')).toBe('default');
  });

  it('shows a command verbatim after $', () => {
    const request: ApprovalRequest = {
      toolName: 'run_shell',
      title: 'About to run a shell command',
      detail: 'ls -la',
      kind: 'command',
    };
    expect(plain(show(<QuestionBody request={request} />).lastFrame())).toContain('$ ls -la');
  });

  it('cuts a very long detail and says how much is left', () => {
    const request = { ...diffRequest, detail: Array.from({ length: 60 }, (_, i) => `+line ${i}`).join('\n') };
    const text = plain(show(<QuestionBody request={request} maxLines={10} />).lastFrame());
    expect(text).toContain('+line 9');
    expect(text).not.toContain('+line 10');
    expect(text).toContain('(… 50 more lines)');
  });

  it('records the answer under the question', () => {
    const text = plain(show(<AnsweredQuestion request={mcpRequest} answer="yes" />).lastFrame());
    expect(text.split('\n').at(-1)).toBe('Confirm execution? [y/N/a] → y');
    expect(plain(show(<AnsweredQuestion request={mcpRequest} answer="always" />).lastFrame())).toContain(
      '→ a',
    );
    expect(plain(show(<AnsweredQuestion request={mcpRequest} answer="no" />).lastFrame())).toContain('→ n');
  });
});

describe('answering in the input line', () => {
  function openQuestion() {
    const target = recordingTarget();
    const instance = show(
      <Screen
        snapshot={snapshot({ busy: true, question: mcpRequest })}
        target={target}
        cols={100}
        rows={20}
      />,
    );
    return { target, instance };
  }

  it('shows the prompt in the input line and the question above the rule', () => {
    const lines = plain(openQuestion().instance.lastFrame()).split('\n');
    expect(lines.at(-1)).toMatch(/^Confirm execution\? \[y\/N\/a\]/);
    expect(
      lines.some((line) => line.startsWith('About to call MCP tool: mcp_demo_word_count (from server demo)')),
    ).toBe(true);
  });

  it('y answers yes, a always, anything else no', () => {
    const keys: Array<[string, string]> = [
      ['y', 'yes'],
      ['Y', 'yes'],
      ['a', 'always'],
      ['x', 'no'],
      ['\r', 'no'],
    ];
    for (const [key, expected] of keys) {
      const { target, instance } = openQuestion();
      instance.stdin.write(key);
      expect(target.answers).toEqual([expected]);
      expect(target.submitted).toEqual([]);
    }
  });

  it('answers the question on screen once: the next key is not taken as another answer', () => {
    const { target, instance } = openQuestion();
    instance.stdin.write('y');
    instance.stdin.write('y');
    expect(target.answers).toEqual(['yes']);
  });

  it('Esc cancels (the session answers no and stops the turn)', async () => {
    const { target, instance } = openQuestion();
    instance.stdin.write('\u001b');
    await vi.waitFor(() => expect(target.calls).toEqual(['cancel']));
    expect(target.answers).toEqual([]);
  });
});

describe('TuiApprover', () => {
  const signal = () => new AbortController().signal;

  it('shows one question at a time and answers them in order', async () => {
    const approver = new TuiApprover();
    const first = approver.ask({ ...mcpRequest, toolName: 'one' }, signal());
    const second = approver.ask({ ...mcpRequest, toolName: 'two' }, signal());
    expect(approver.current()?.toolName).toBe('one');
    approver.answer('yes');
    expect(approver.current()?.toolName).toBe('two');
    approver.answer('always');
    await expect(first).resolves.toBe('yes');
    await expect(second).resolves.toBe('always');
    expect(approver.current()).toBeUndefined();
    expect(approver.answer('yes')).toBe(false);
  });

  it('withdraws a question whose turn is cancelled, without losing the others', async () => {
    const approver = new TuiApprover();
    const turn = new AbortController();
    const cancelled = approver.ask({ ...mcpRequest, toolName: 'cancelled' }, turn.signal);
    const kept = approver.ask({ ...mcpRequest, toolName: 'kept' }, signal());
    turn.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    expect(approver.current()?.toolName).toBe('kept');
    approver.answer('no');
    await expect(kept).resolves.toBe('no');
  });

  it('tells the model the person declined', () => {
    expect(new TuiApprover().refusalMessage('mcp_demo_dice')).toBe('the user declined to run mcp_demo_dice');
  });
});
