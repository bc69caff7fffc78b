/**
 * A Gemini CLI command file (`commands/**.toml` of an extension): `prompt` (required) and
 * `description`, read through smol-toml. Its `{{args}}` becomes `$ARGUMENTS` and its `!{command}`
 * the `` !`command` `` of a Markdown command (run through run_shell like any other); without
 * `{{args}}`, the arguments are appended, as both formats do.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'smol-toml';
import { errorMessage } from '../util/errors.js';
import { type CustomCommand, commandStub, MAX_COMMAND_BYTES, validName } from './parse.js';

export async function readTomlCommand(file: string, name: string): Promise<CustomCommand> {
  const { base, fail } = commandStub(name, 'user', file);
  if (!validName(name)) return fail(`the name "${name}" cannot be typed as a command`);
  try {
    const text = await readFile(file, 'utf8');
    if (text.length > MAX_COMMAND_BYTES) return fail(`too large (at most ${MAX_COMMAND_BYTES} bytes)`);
    const document = parse(text) as Record<string, unknown>;
    const prompt = document.prompt;
    if (typeof prompt !== 'string' || prompt.trim() === '')
      return fail('no "prompt" (the text the command sends)');
    const description = typeof document.description === 'string' ? document.description.trim() : '';
    const body = prompt
      .trim()
      .replaceAll('{{args}}', '$ARGUMENTS')
      .replace(/!\{([^{}\n]+)\}/g, (_all, command: string) => `!\`${command.trim()}\``);
    return {
      ...base,
      description: description || (body.split('\n')[0] ?? '').slice(0, 200),
      body,
    };
  } catch (error) {
    const line = (error as { line?: number }).line;
    return fail(errorMessage(error).split('\n')[0] ?? 'cannot be read', typeof line === 'number' ? line : 1);
  }
}
