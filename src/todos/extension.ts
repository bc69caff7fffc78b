/**
 * The todo list as an extension: `todo_write` (replaces the list; at most one item in progress),
 * `/todos`, the panel's TODO rows and a reminder in every turn's context. The list belongs to the
 * session: it is kept as conversation state (saved as a line of the session file, restored by
 * `--continue` and `/open`) and re-stated in every turn's user message (the list changes as the
 * model works, so not in the system prompt, whose change would cost the prompt cache), so a
 * compaction never summarises it away.
 */
import type { Conversation } from '../agent/conversation.js';
import { type Extension, PANEL_ORDER, PROMPT_ORDER } from '../extensions/types.js';
import { toolArguments } from '../tools/arguments.js';
import { type Tool, ToolError } from '../tools/types.js';
import * as z from '../util/schema.js';

export type TodoStatus = 'pending' | 'in_progress' | 'completed';

export interface Todo {
  content: string;
  status: TodoStatus;
}

const STATE_KEY = 'todos';
const STATUSES = ['pending', 'in_progress', 'completed'] as const satisfies readonly TodoStatus[];
const MARK: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[>]', completed: '[x]' };
/** Items shown in the panel; the rest are counted in a `+N more` row. */
export const PANEL_TODO_ROWS = 6;
const MAX_TODOS = 100;
const MAX_CONTENT = 500;

/** The session's list, read from and written to the conversation's state. */
export class TodoStore {
  constructor(private readonly conversation: Conversation) {}

  get todos(): Todo[] {
    return parseTodos(this.conversation.state(STATE_KEY)) ?? [];
  }

  replace(todos: Todo[]): void {
    this.conversation.setState(STATE_KEY, todos);
  }

  /** The list as the model and `/todos` see it, one item a line. */
  describe(): string {
    const todos = this.todos;
    if (todos.length === 0) return '(the todo list is empty)';
    return todos.map((todo) => `${MARK[todo.status]} ${todo.content}`).join('\n');
  }
}

const todoArgs = toolArguments(
  'todo_write',
  () => z.object({ todos: z.array(z.object({ content: z.string(), status: z.enum(STATUSES) })) }),
  { open: true },
);

/** Validates the tool's arguments; a message for the model when they are wrong. */
export function validateTodos(args: Record<string, unknown>): Todo[] {
  const given = todoArgs.parse(args).todos;
  if (given.length > MAX_TODOS) throw new ToolError(`todo_write: at most ${MAX_TODOS} items`);
  const todos: Todo[] = given.map((item, index) => {
    const content = item.content.trim();
    if (content === '') throw new ToolError(`todo_write: item ${index + 1} needs a non-empty "content"`);
    return { content: content.slice(0, MAX_CONTENT), status: item.status };
  });
  const active = todos.filter((todo) => todo.status === 'in_progress');
  if (active.length > 1) {
    throw new ToolError(
      `todo_write: ${active.length} items are in_progress; at most one may be (mark the others pending or completed)`,
    );
  }
  return todos;
}

function parseTodos(value: unknown): Todo[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(
    (item): item is Todo =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as Todo).content === 'string' &&
      STATUSES.includes((item as Todo).status),
  );
}

export function todoWriteTool(store: TodoStore, changed: () => void): Tool {
  return {
    name: 'todo_write',
    description:
      'Keep a todo list for multi-step work: send the whole list each time (it replaces the old one). ' +
      'Status is pending, in_progress or completed; at most one item in_progress. The list survives ' +
      'compaction and is shown to the user.',
    get parameters() {
      return todoArgs.parameters;
    },
    async run(args) {
      const todos = validateTodos(args);
      store.replace(todos);
      changed();
      return `todo list updated (${todos.length} items):\n${store.describe()}`;
    },
  };
}

/** The panel's TODO rows: a header with counts, then items, cut to fit with `+N more`. */
export function todoPanelRows(
  todos: readonly Todo[],
  width: number,
): Array<{ label: string; value: string }> {
  if (todos.length === 0) return [];
  const done = todos.filter((todo) => todo.status === 'completed').length;
  const rows = [{ label: 'TODO', value: `${done}/${todos.length} done` }];
  // In progress first, then pending, then completed: what matters now stays visible.
  const rank: Record<TodoStatus, number> = { in_progress: 0, pending: 1, completed: 2 };
  const ordered = [...todos].sort((a, b) => rank[a.status] - rank[b.status]);
  const shown = ordered.length > PANEL_TODO_ROWS ? ordered.slice(0, PANEL_TODO_ROWS - 1) : ordered;
  for (const todo of shown) {
    const line = `${MARK[todo.status]} ${todo.content.replace(/\s+/g, ' ')}`;
    rows.push({ label: '', value: line.length > width ? `${line.slice(0, width - 1)}…` : line });
  }
  if (shown.length < ordered.length)
    rows.push({ label: '', value: `+${ordered.length - shown.length} more` });
  return rows;
}

export function todoExtension(conversation: Conversation, panelWidth = 24): Extension {
  const store = new TodoStore(conversation);
  return {
    name: 'todos',
    setup(host) {
      host.tools.add(
        todoWriteTool(store, () => host.changed()),
        'allow',
      );
      host.commands.add({
        name: 'todos',
        usage: '/todos',
        description: 'show the todo list the model keeps for this session',
        run: async (_args, ctx) => ctx.print(store.describe()),
      });
      for (let i = 0; i <= PANEL_TODO_ROWS + 1; i++) {
        host.panel(() => {
          const row = todoPanelRows(store.todos, panelWidth)[i];
          return row ? { ...row, order: PANEL_ORDER.todo + i / 100 } : undefined;
        });
      }
      host.on.prompt(async () => {
        const todos = store.todos;
        if (todos.length === 0) return undefined;
        return {
          order: PROMPT_ORDER.todos,
          text: `Your todo list for this session (update it with todo_write as you work):\n${store.describe()}`,
          placement: 'turn',
        };
      });
      host.report('todos', () => store.todos);
    },
  };
}
