/**
 * The shape of one `mcpServers` entry in mcp.json: a zod schema per transport, and the check that
 * turns a raw entry into a typed one or a message naming the file and JSON path of the problem.
 */

import { describeSchemaError, jsonPath, type SchemaError } from '../util/json-file.js';
import * as z from '../util/schema.js';
import { hasVariableReference } from './expand-vars.js';
import { MAX_RESULT_TOKENS, MAX_TIMEOUT_MS, plainStdioEntry } from './plain-entry.js';

export { MAX_RESULT_TOKENS, MAX_TIMEOUT_MS };

/** Unknown keys are errors (they are usually typos), reported one per key with a suggestion. */
function strict<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? 'unknown key' : undefined),
  });
}

/**
 * The entry schemas, built on first use: constructing them costs a start milliseconds (zod builds
 * every check eagerly), which a run without any mcp.json need not pay. Descriptions go to zod's
 * registry (`z.globalRegistry.get(schema)?.description`) and document each key.
 */
function buildEntrySchemas() {
  const described = <T extends z.ZodMiniType>(schema: T, what: string): T => schema.check(z.describe(what));
  const positiveMs = (what: string) =>
    described(
      z
        .int('expected a whole number of milliseconds')
        .check(
          z.minimum(1, 'must be at least 1 (milliseconds)'),
          z.maximum(MAX_TIMEOUT_MS, `must be at most ${MAX_TIMEOUT_MS} (milliseconds, about 24.8 days)`),
        ),
      what,
    );
  const toolPatterns = (what: string) => described(z.array(z.string()), what);

  const commonShape = {
    timeout: z.optional(
      positiveMs(
        'Milliseconds to wait for each request to the server (default 60000; progress notifications restart it).',
      ),
    ),
    startupTimeout: z.optional(
      positiveMs('Milliseconds to wait for the server to start and answer initialize (default 30000).'),
    ),
    disabled: z.optional(described(z.boolean(), 'Keep the entry but do not connect to the server.')),
    roots: z.optional(
      described(
        z.boolean(),
        'false: do not offer the project folder as a root (server-filesystem would replace its own directories with it).',
      ),
    ),
    startup: z.optional(
      described(
        z.enum(['lazy', 'eager']),
        'lazy (default): once its tools are cached, start the server only when one of them is called; eager: start it with the agent.',
      ),
    ),
    includeTools: z.optional(
      toolPatterns('Only these server tools (server-side names; `*` matches any run of characters).'),
    ),
    excludeTools: z.optional(
      toolPatterns('Hide these server tools (applied after includeTools; `*` patterns).'),
    ),
    maxResultTokens: z.optional(
      described(
        z
          .int('expected a whole number of tokens')
          .check(
            z.minimum(1, 'must be at least 1'),
            z.maximum(MAX_RESULT_TOKENS, `must be at most ${MAX_RESULT_TOKENS}`),
          ),
        'Cut tool results above about this many tokens (default 25000).',
      ),
    ),
  };

  const paths = (what: string) => described(z.array(z.string()), what);
  const sandbox = described(
    strict({
      allowWrite: z.optional(
        paths(
          "More folders the server may write (relative to the file's folder base, like cwd; ~ is home). A project server's are asked when the folder is trusted.",
        ),
      ),
      network: z.optional(
        described(
          strict({
            allow: z.optional(
              paths('Hosts the server may reach (through the sandbox proxy); "host:port" narrows to a port.'),
            ),
          }),
          "The server's network: nothing unless listed.",
        ),
      ),
      denyRead: z.optional(
        paths('More paths the server may not read (besides ~/.ssh, ~/.aws and the rest).'),
      ),
    }),
    'The sandbox with more room: paths to write, hosts to reach, paths to hide.',
  );

  const stdio = described(
    strict({
      type: z.optional(
        described(z.literal('stdio'), 'A local server started as a subprocess (the default).'),
      ),
      command: described(
        z.string().check(z.minLength(1, 'command must not be empty')),
        'Executable to start; environment variables expanded.',
      ),
      args: z.optional(described(z.array(z.string()), 'Arguments; environment variables expanded.')),
      env: z.optional(
        described(
          z.record(z.string(), z.string()),
          'Extra environment variables for the server (variables in values expanded).',
        ),
      ),
      cwd: z.optional(
        described(
          z.string(),
          'Working directory; relative to the project (project file) or home (user file).',
        ),
      ),
      sandbox: z.optional(
        described(
          z.union([z.boolean(), sandbox], {
            error:
              'expected true, false or an object like {"allowWrite": ["dir"], "network": {"allow": ["host"]}, "denyRead": ["path"]} (lists of strings)',
          }),
          'true: run the server confined by the kernel sandbox (writes only under the project and its temp folder, secrets hidden, no network); an object widens that for this server.',
        ),
      ),
      ...commonShape,
    }),
    'A stdio MCP server: GeekAgent spawns it and speaks JSON-RPC over its stdin/stdout.',
  );

  const oauth = described(
    strict({
      clientId: z.optional(
        described(z.string(), 'Pre-registered OAuth client id (otherwise dynamic registration).'),
      ),
      clientSecret: z.optional(
        described(z.string(), 'Client secret for confidential clients; environment variables expanded.'),
      ),
      scopes: z.optional(described(z.array(z.string()), 'Scopes to request.')),
      callbackPort: z.optional(
        described(
          z.int().check(z.minimum(1), z.maximum(65535)),
          'Local port for the OAuth redirect (default: any free port).',
        ),
      ),
      clientMetadataUrl: z.optional(
        described(
          z.string(),
          'HTTPS URL of a client ID metadata document, used as client_id where the server supports it.',
        ),
      ),
      grant: z.optional(
        described(
          z.enum(['authorization_code', 'client_credentials', 'cross_app_access']),
          'How to get tokens: a browser login (default), machine credentials, or an enterprise IdP token.',
        ),
      ),
      privateKey: z.optional(
        described(
          z.string(),
          'PEM private key for private_key_jwt client authentication (client_credentials); use ${VAR}.',
        ),
      ),
      signingAlgorithm: z.optional(described(z.string(), 'JWS algorithm for privateKey (default ES256).')),
      idp: z.optional(
        described(
          strict({
            tokenEndpoint: described(
              z.string(),
              'The enterprise IdP token endpoint (RFC 8693 token exchange).',
            ),
            clientId: described(z.string(), 'Our client id at the IdP.'),
            idToken: described(z.string(), 'The ID token to exchange; use ${VAR}.'),
          }),
          'Cross-app access (SEP-990): exchange an IdP ID token for an authorization grant.',
        ),
      ),
    }),
    'OAuth settings for a remote server.',
  );

  const remote = described(
    strict({
      type: described(z.enum(['http', 'sse']), 'Streamable HTTP, or the older HTTP+SSE transport.'),
      url: described(
        z
          .string()
          // A URL built from `${VAR}` can only be checked once expanded; the loader does that.
          .check(
            z.refine(
              (url) => hasVariableReference(url) || isHttpUrl(url),
              'expected an http:// or https:// URL',
            ),
          ),
        'Server endpoint; environment variables expanded.',
      ),
      headers: z.optional(
        described(
          z.record(z.string(), z.string()),
          'Extra HTTP headers, e.g. Authorization (variables in values expanded).',
        ),
      ),
      oauth: z.optional(oauth),
      ...commonShape,
    }),
    'A remote MCP server reached over HTTP.',
  );
  return { stdio, oauth, remote, sandbox };
}

type EntrySchemas = ReturnType<typeof buildEntrySchemas>;
/** Immutable once built; kept so every check shares one set. */
let builtSchemas: EntrySchemas | undefined;

export function entrySchemas(): EntrySchemas {
  builtSchemas ??= buildEntrySchemas();
  return builtSchemas;
}

export type StdioEntry = z.infer<EntrySchemas['stdio']>;
export type RemoteEntry = z.infer<EntrySchemas['remote']>;
export type SandboxEntry = z.infer<EntrySchemas['sandbox']>;

export type EntryCheck =
  | { ok: true; kind: 'stdio'; entry: StdioEntry }
  | { ok: true; kind: 'remote'; entry: RemoteEntry }
  | { ok: false; error: string };

export function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const protocol = new URL(text).protocol;
  return protocol === 'http:' || protocol === 'https:';
}

/** `null` when the name is usable; names reach file names, logs and tool-name prefixes. */
export function serverNameProblem(name: string): string | null {
  if (name.length === 0) return 'server name must not be empty';
  if (name.length > 64) return `server name is ${name.length} characters long (at most 64)`;
  if (/[\s/]/u.test(name)) return `server name "${name}" must not contain "/" or whitespace`;
  return null;
}

/** Validates one entry of `mcpServers` (no expansion: add/remove keep the raw text). */
export function checkServerEntry(file: string, name: string, raw: unknown): EntryCheck {
  const at = ['mcpServers', name];
  const fail = (where: readonly PropertyKey[], message: string): EntryCheck => ({
    ok: false,
    error: `${file}: at ${jsonPath(where)}: ${message}`,
  });
  const nameProblem = serverNameProblem(name);
  if (nameProblem) return fail(at, nameProblem);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return fail(
      at,
      `expected an object with "command" (stdio) or "type" and "url" (remote), got ${typeName(raw)}`,
    );
  }
  const entry = withoutCommentKeys(raw as Record<string, unknown>);
  const type = entry.type;
  if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'sse') {
    return fail([...at, 'type'], `expected "stdio", "http" or "sse", got ${JSON.stringify(type)}`);
  }
  if (type === undefined && 'url' in entry && !('command' in entry)) {
    return fail(at, 'an entry with "url" needs "type": "http" or "sse"');
  }
  const remote = type === 'http' || type === 'sse';
  if (remote && 'sandbox' in entry) {
    return fail(
      [...at, 'sandbox'],
      `"sandbox" confines a local (stdio) server; server "${name}" is remote (${String(type)}) and runs elsewhere: remove "sandbox" from it`,
    );
  }
  // The usual stdio entry, without building the schemas (plain-entry.ts); the rest, and every
  // message, are theirs.
  const plain = remote ? undefined : plainStdioEntry(entry);
  if (plain) return { ok: true, kind: 'stdio', entry: plain as StdioEntry };
  const schemas = entrySchemas();
  // jitless: a run checks a handful of entries; compiling zod's fast path for them costs more.
  const parsed = remote
    ? schemas.remote.safeParse(entry, { jitless: true })
    : schemas.stdio.safeParse(entry, { jitless: true });
  if (parsed.success) {
    return remote
      ? { ok: true, kind: 'remote', entry: parsed.data as RemoteEntry }
      : { ok: true, kind: 'stdio', entry: parsed.data as StdioEntry };
  }
  const knownAt = (where: readonly PropertyKey[]): string[] =>
    Object.keys(
      where[0] === 'oauth'
        ? schemas.oauth.shape
        : where[0] === 'sandbox'
          ? where[1] === 'network'
            ? { allow: true }
            : schemas.sandbox.shape
          : remote
            ? schemas.remote.shape
            : schemas.stdio.shape,
    );
  return { ok: false, error: describeSchemaError(file, explainUnknownKeys(parsed.error, knownAt), at) };
}

/** Keys starting with `_` or `$` are comments (JSON has none of its own). */
function withoutCommentKeys(entry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(entry).filter(([key]) => !key.startsWith('_') && !key.startsWith('$')),
  );
}

/** zod reports all unknown keys as one issue at the parent; one issue per key points at the typo. */
function explainUnknownKeys(
  error: SchemaError,
  knownAt: (where: readonly PropertyKey[]) => string[],
): SchemaError {
  const issues = error.issues.flatMap((issue): z.core.$ZodIssue[] => {
    if (issue.code !== 'unrecognized_keys') return [issue];
    const known = knownAt(issue.path);
    return issue.keys.map((key) => ({
      ...issue,
      path: [...issue.path, key],
      message: unknownKeyMessage(key, known),
    }));
  });
  return { issues };
}

function unknownKeyMessage(key: string, known: readonly string[]): string {
  if (key === 'url') return 'unknown key "url" (a remote server needs "type": "http" or "sse")';
  if (key === 'command')
    return 'unknown key "command" (remote servers have no command; drop "type" for stdio)';
  // Short keys are close to everything; demand a nearer match before suggesting.
  const allowed = key.length < 4 ? 1 : 2;
  const close = known.find(
    (candidate) => editDistance(key.toLowerCase(), candidate.toLowerCase()) <= allowed,
  );
  return close ? `unknown key "${key}" (did you mean "${close}"?)` : `unknown key "${key}"`;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
