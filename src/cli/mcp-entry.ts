/**
 * The raw mcp.json entry `geekagent mcp add` writes, from its arguments: a stdio command with
 * `-e KEY=VALUE` pairs, or one URL with `--header "Key: value"` pairs. Bad input is reported.
 */

export function stdioEntry(
  report: (text: string) => void,
  command: string[],
  pairs: string[],
): Record<string, unknown> | undefined {
  const env = splitPairs(report, pairs, '=', '-e', 'KEY=VALUE');
  if (!env) return undefined;
  const [executable, ...args] = command;
  return {
    command: executable,
    ...(args.length > 0 ? { args } : {}),
    ...(Object.keys(env).length > 0 ? { env } : {}),
  };
}

export function remoteEntry(
  report: (text: string) => void,
  target: string[],
  transport: 'http' | 'sse',
  header: string[],
): Record<string, unknown> | undefined {
  if (target.length !== 1) {
    report(`--transport ${transport} takes one URL, got: ${target.join(' ')}\n`);
    return undefined;
  }
  const headers = splitPairs(report, header, ':', '--header', '"Key: value"');
  if (!headers) return undefined;
  return { type: transport, url: target[0], ...(Object.keys(headers).length > 0 ? { headers } : {}) };
}

function splitPairs(
  report: (text: string) => void,
  pairs: string[],
  separator: string,
  flag: string,
  shape: string,
): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf(separator);
    if (at <= 0) {
      report(`invalid ${flag} ${pair}: expected ${shape}\n`);
      return undefined;
    }
    out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return out;
}
