/**
 * The built-in tools' default policies: what decides when no rule in any layer matches. Never
 * copied into a config file (a copy would become a project rule and outrank the user's file).
 */
import type { Policy } from './types.js';

export const BUILTIN_POLICIES: Readonly<Record<string, Policy>> = Object.freeze({
  get_current_time: 'allow',
  run_shell: 'ask',
  ls: 'allow',
  read: 'allow',
  glob: 'allow',
  search: 'allow',
  fetch: 'ask',
  write: 'ask',
  patch: 'ask',
  todo_write: 'allow',
  delegate_task: 'allow',
  memory_write: 'allow',
  memory_search: 'allow',
  rag_add: 'ask',
  rag_search: 'allow',
});
