/**
 * `${VAR}` / `${VAR:-default}` expansion for MCP config strings, from an environment passed in.
 * Pure: the caller decides which fields are expanded and how a missing variable is reported.
 */

export type ExpandResult = { ok: true; value: string } | { ok: false; variable: string };

/**
 * Only the braced forms are recognised, so a lone `$`, `$$` or `$HOME` passes through untouched —
 * commands and regex-like arguments often contain dollars that are not meant for us.
 */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/;

/**
 * `taken` hears each value taken from the environment (not a default: that is written in the
 * file): what the server's error messages must not show (mcp/redact.ts).
 */
export function expandVariables(
  text: string,
  env: NodeJS.ProcessEnv,
  taken?: (variable: string, value: string) => void,
): ExpandResult {
  if (!text.includes('${')) return { ok: true, value: text };
  let missing: string | undefined;
  const value = text.replace(
    new RegExp(REFERENCE.source, 'g'),
    (whole, name: string, fallback: string | undefined) => {
      const current = env[name];
      // Shell semantics: `${VAR}` accepts an empty value, `${VAR:-d}` treats empty like unset.
      if (fallback !== undefined && (current === undefined || current === '')) return fallback;
      if (current === undefined) {
        missing ??= name;
        return whole;
      }
      taken?.(name, current);
      return current;
    },
  );
  return missing === undefined ? { ok: true, value } : { ok: false, variable: missing };
}

/** True when the text would be changed by expansion (used to defer format checks such as URLs). */
export function hasVariableReference(text: string): boolean {
  return REFERENCE.test(text);
}
