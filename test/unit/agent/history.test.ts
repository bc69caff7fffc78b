/**
 * The history's change log (src/agent/history.ts): every change is reported as data, and replaying
 * the recorded changes with `applyChange` rebuilds the same messages — what the session log relies
 * on. A change naming an id the list lacks leaves it as it was; repairs give every dangling tool
 * call an "interrupted" result right after its run.
 */
import { describe, expect, it } from 'vitest';
import { applyChange, History, type HistoryChange, type HistoryMessage } from '../../../src/agent/history.js';
import type { Message } from '../../../src/providers/messages.js';

const user = (text: string): Message => ({ role: 'user', text });
const assistant = (text: string, calls: string[] = []): Message => ({
  role: 'assistant',
  text,
  toolCalls: calls.length ? calls.map((id) => ({ id, name: 'read', arguments: '{}' })) : undefined,
});
const tool = (callId: string): Message => ({ role: 'tool', callId, name: 'read', output: 'ok' });

function recorded(history: History): HistoryChange[] {
  const changes: HistoryChange[] = [];
  history.onChange((change) => changes.push(change));
  return changes;
}

const replay = (changes: HistoryChange[]) =>
  changes.reduce<HistoryMessage[]>((list, change) => applyChange(list, change), []);

describe('History', () => {
  it('reports append, truncate and replace as data that replays to the same list', () => {
    const history = new History();
    const changes = recorded(history);
    const first = history.append(user('one'));
    history.append(assistant('reply one'));
    const second = history.append(user('two'));
    const last = history.append(assistant('reply two'));
    history.replaceRange(
      first.id,
      second.id,
      [{ role: 'summary', text: 'one and two' } as Message],
      'compaction',
    );
    history.truncateAfter(last.id);
    history.append(user('three'));
    history.truncateAfter(history.messages[0]!.id);

    expect(changes.map((change) => change.type)).toEqual([
      'append',
      'append',
      'append',
      'append',
      'replace',
      'append',
      'truncate',
    ]);
    expect(replay(changes)).toEqual(history.messages);
    expect(history.messages.map((message) => message.role)).toEqual(['summary']);
  });

  it('gives every message its own id, fresh ones for replaced messages', () => {
    const history = new History();
    const a = history.append(user('a'));
    const b = history.append(user('b'));
    const [summary] = history.replaceRange(a.id, b.id, [user('ab')], 'test');
    const ids = [a.id, b.id, summary!.id];
    expect(new Set(ids).size).toBe(3);
    expect(history.indexOf(summary!.id)).toBe(0);
    expect(history.indexOf(a.id)).toBe(-1);
  });

  it('a truncate that removes nothing is not reported; truncate(null) empties', () => {
    const history = new History();
    const changes = recorded(history);
    const only = history.append(user('a'));
    history.truncateAfter(only.id);
    expect(changes).toHaveLength(1);
    history.truncateAfter(null);
    expect(history.length).toBe(0);
    expect(changes.at(-1)).toEqual({ type: 'truncate', after: null });
  });

  it('load swaps the list and reports only that it happened', () => {
    const history = new History();
    const changes = recorded(history);
    const other = new History();
    other.append(user('elsewhere'));
    history.load(other.messages);
    expect(history.messages).toEqual(other.messages);
    expect(changes).toEqual([{ type: 'load' }]);
  });

  it('applyChange leaves the list as it is for an unknown id or a reversed range', () => {
    const history = new History();
    const a = history.append(user('a'));
    const b = history.append(user('b'));
    const list = history.messages;
    expect(applyChange(list, { type: 'truncate', after: 'missing' })).toEqual(list);
    expect(applyChange(list, { type: 'replace', from: b.id, to: a.id, messages: [], reason: 'x' })).toEqual(
      list,
    );
    expect(
      applyChange(list, { type: 'replace', from: 'missing', to: b.id, messages: [], reason: 'x' }),
    ).toEqual(list);
  });

  it('repairs dangling tool calls with an interrupted result right after their run, as recorded changes', () => {
    const history = new History();
    const changes = recorded(history);
    history.append(user('go'));
    history.append(assistant('', ['c1', 'c2']));
    history.append(tool('c1'));
    history.append(user('next'));
    history.append(assistant('', ['c3']));

    expect(history.repairToolResults()).toBe(2);
    const shape = history.messages.map((message) =>
      message.role === 'tool' ? `tool:${message.callId}${message.isError ? '!' : ''}` : message.role,
    );
    expect(shape).toEqual(['user', 'assistant', 'tool:c1', 'tool:c2!', 'user', 'assistant', 'tool:c3!']);
    expect(replay(changes)).toEqual(history.messages);
    expect(history.repairToolResults()).toBe(0);
  });
});
