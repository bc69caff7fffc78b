/**
 * Gemini CLI's `excludeTools` of an extension in GeekAgent's tool names: `run_shell_command` is
 * `run_shell`, `write_file` `write`, `replace` `patch`, and so on; a name of ours stays as it is.
 * An entry scoped to arguments (`run_shell_command(rm -rf)`) cannot be expressed by a whole-tool
 * filter: it is returned apart, never widened to the whole tool.
 */
const FROM_GEMINI: ReadonlyMap<string, string> = new Map([
  ['run_shell_command', 'run_shell'],
  ['read_file', 'read'],
  ['read_many_files', 'read'],
  ['write_file', 'write'],
  ['replace', 'patch'],
  ['list_directory', 'ls'],
  ['glob', 'glob'],
  ['search_file_content', 'search'],
  ['web_fetch', 'fetch'],
]);

export interface ExcludedTools {
  /** Tool names hidden from the model while the extension is on. */
  names: string[];
  /** Entries scoped to arguments: listed, not applied. */
  scoped: string[];
}

export function excludedTools(entries: readonly string[]): ExcludedTools {
  const names = new Set<string>();
  const scoped: string[] = [];
  for (const entry of entries) {
    const trimmed = entry.trim();
    if (trimmed === '') continue;
    if (trimmed.includes('(')) scoped.push(trimmed);
    else names.add(FROM_GEMINI.get(trimmed) ?? trimmed);
  }
  return { names: [...names], scoped };
}
