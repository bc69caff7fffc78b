/**
 * Model-visible names for one server's tools: `mcp_<server>_<tool>`, sanitised, at most 64
 * characters, unique within the server and stable however the server orders its tool list. Of
 * tools that sanitise alike, the one already named that way keeps the plain name. A name
 * that could also be read as another configured server's (`mcp_gh_x_read`: server `gh` tool
 * `x_read`, or server `gh_x` tool `read`) gets a hash of its own (server, tool) instead, so a rule
 * or an approval written for that name can never pass from one server's tool to the other's.
 */
import { sha256Hex } from '../util/sha256.js';

export interface NamedTool {
  modelName: string;
  originalName: string;
}

export interface NamingResult {
  /** Same order as the input. */
  tools: NamedTool[];
  /**
   * Plain names several tools sanitised to: a tool whose own name is already that plain name keeps
   * it, else the first by original name; the others got a hash suffix.
   */
  collisions: Array<{ modelName: string; originalNames: string[]; kept: string }>;
  /** Tools whose plain name could also be another server's (named here); they got a hash suffix. */
  contested: Array<{ otherServer: string; originalNames: string[] }>;
}

/** Providers accept `^[a-zA-Z0-9_-]{1,64}$` for function names. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Hash lengths tried in turn when a shorter hashed name is already taken. */
const HASH_LENGTHS = [8, 16, 32] as const;

/** Every character outside `[a-zA-Z0-9_-]` becomes `_` (one per code point, so emoji give one `_`). */
export function sanitizeName(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/gu, '_');
}

/**
 * `otherServers`: every other configured server (connected or not), so names do not depend on
 * which servers happen to be up.
 */
export function nameServerTools(
  server: string,
  originalNames: readonly string[],
  otherServers: readonly string[] = [],
): NamingResult {
  const prefix = `mcp_${sanitizeName(server)}_`;
  const plainOf = (original: string) => `${prefix}${sanitizeName(original)}`;
  const rivals = otherServers
    .filter((other) => other !== server)
    .map((other) => ({ server: other, prefix: `mcp_${sanitizeName(other)}_` }));
  /** The first other server whose own tool could have this plain name. */
  const rivalOf = (plain: string) =>
    rivals.find((rival) => plain.length > rival.prefix.length && plain.startsWith(rival.prefix))?.server;

  // Everything below depends only on the set of names, never on their order of arrival, so a
  // restarted server that lists its tools differently keeps the same model names.
  const distinct = [...new Set(originalNames)].sort(compareCodeUnits);
  const groups = new Map<string, string[]>();
  for (const original of distinct) {
    const plain = plainOf(original);
    const members = groups.get(plain);
    if (members) members.push(original);
    else groups.set(plain, [original]);
  }

  const assigned = new Map<string, string>();
  const taken = new Set<string>();
  const needHash: string[] = [];
  const collisions: NamingResult['collisions'] = [];
  const contested = new Map<string, string[]>();
  for (const [plain, members] of groups) {
    const rival = rivalOf(plain);
    if (rival !== undefined) {
      contested.set(rival, [...(contested.get(rival) ?? []), ...members]);
      needHash.push(...members);
      continue;
    }
    const fits = plain.length <= MAX_TOOL_NAME_LENGTH;
    if (fits) {
      // The tool whose own name is the plain name keeps it: a rule written as `mcp_srv_delete_repo`
      // stays with `delete_repo`, and a listed decoy `delete.repo` cannot take it (nor its rules).
      const holder = members.find((original) => sanitizeName(original) === original) ?? members[0]!;
      assigned.set(holder, plain);
      taken.add(plain);
      if (members.length > 1)
        collisions.push({ modelName: plain, originalNames: [...members], kept: holder });
      needHash.push(...members.filter((original) => original !== holder));
    } else needHash.push(...members);
  }

  // Plain names are settled first so a hashed name can never take one of them.
  for (const original of needHash.sort(compareCodeUnits)) {
    const name = hashedName(server, original, plainOf(original), taken);
    assigned.set(original, name);
    taken.add(name);
  }

  collisions.sort((a, b) => compareCodeUnits(a.modelName, b.modelName));
  return {
    tools: originalNames.map((originalName) => ({ modelName: assigned.get(originalName)!, originalName })),
    collisions,
    contested: [...contested]
      .sort(([a], [b]) => compareCodeUnits(a, b))
      .map(([otherServer, names]) => ({ otherServer, originalNames: names })),
  };
}

function hashedName(server: string, original: string, plain: string, taken: ReadonlySet<string>): string {
  // sha256Hex, not node:crypto: names are made before a start's first request (crypto would load, ~4.5 ms).
  const digest = sha256Hex(`${server}\0${original}`);
  for (const length of HASH_LENGTHS) {
    const candidate = withSuffix(plain, digest.slice(0, length));
    if (!taken.has(candidate)) return candidate;
  }
  // Unreachable in practice (a 32-hex-digit sha256 clash); still keep names unique and ≤ 64.
  for (let counter = 1; ; counter++) {
    const candidate = withSuffix(plain, `${digest.slice(0, 24)}${counter.toString(16).padStart(8, '0')}`);
    if (!taken.has(candidate)) return candidate;
  }
}

function withSuffix(plain: string, hash: string): string {
  return `${plain.slice(0, MAX_TOOL_NAME_LENGTH - hash.length - 1)}_${hash}`;
}

/** Locale-independent, so every machine sorts the same way. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
