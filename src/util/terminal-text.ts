/**
 * Makes untrusted text safe to put on a terminal: every C0/C1 control character (escape
 * sequences, carriage returns, bells) and every bidi/invisible formatting character is shown as a
 * visible token, so text from a model, a tool, a server or a file name can never move the cursor,
 * clear the screen, set the title, write the clipboard (OSC 52) or hide part of itself.
 * Newlines and tabs are kept (layout, not control), unless `singleLine` is asked for.
 */

/** C0 (except \t \n), DEL, C1, and Unicode format characters that reorder or hide text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const TEST = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

function token(char: string): string {
  const code = char.charCodeAt(0);
  // Caret notation for C0 and DEL: ESC is `^[`, CR is `^M`, DEL is `^?`.
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** `text` with control and invisible formatting characters made visible (`\e` → `^[`). */
export function visible(text: string): string {
  // Fast path: almost all text has nothing to replace.
  if (!TEST.test(text)) return text;
  return text.replace(UNSAFE, token);
}

/** Like `visible`, but newlines and tabs become `^J` / `^I` too: for one-line labels and prompts. */
export function visibleLine(text: string): string {
  return text.replace(UNSAFE_SINGLE_LINE, token);
}

/** Whether `text` holds anything `visible` would change. */
export function hasControlCharacters(text: string): boolean {
  return TEST.test(text);
}
