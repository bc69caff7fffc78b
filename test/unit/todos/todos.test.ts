import { describe, expect, it } from 'vitest';
import { PANEL_TODO_ROWS, type Todo, todoPanelRows } from '../../../src/todos/extension.js';

describe('todo panel rows', () => {
  it('marks items, puts the one in progress first, cuts long items and counts the rest', () => {
    const todos: Todo[] = [
      { content: 'done thing', status: 'completed' },
      { content: 'a very long item that does not fit in the panel', status: 'pending' },
      { content: 'now', status: 'in_progress' },
      ...Array.from({ length: 8 }, (_, i) => ({ content: `later ${i}`, status: 'pending' as const })),
    ];
    const rows = todoPanelRows(todos, 20);
    expect(rows[0]).toEqual({ label: 'TODO', value: '1/11 done' });
    expect(rows[1]!.value).toBe('[>] now');
    expect(rows[2]!.value).toBe('[ ] a very long ite…');
    expect(rows[2]!.value.length).toBe(20);
    expect(rows).toHaveLength(PANEL_TODO_ROWS + 1);
    expect(rows.at(-1)!.value).toBe(`+${11 - (PANEL_TODO_ROWS - 1)} more`);
  });

  it('shows nothing for an empty list', () => {
    expect(todoPanelRows([], 20)).toEqual([]);
  });
});
