/**
 * What each served tool does, as MCP tool annotations: the one table `geekagent mcp serve` reads,
 * so the hints cannot drift from a second copy. A tool missing here is not served (a new tool must
 * say what it does before other clients see it). Per the MCP spec, `destructiveHint` and
 * `idempotentHint` only mean something when `readOnlyHint` is false, so read-only tools leave them
 * out; `openWorldHint` is true for tools that reach past the root (network, arbitrary commands).
 */

export interface ServedHints {
  /** A short human title clients may show instead of the name. */
  title: string;
  /** Changes nothing: files, memory, the knowledge base and the world stay as they were. */
  readOnlyHint: boolean;
  /** May overwrite or remove what was there (only meaningful when not read-only). */
  destructiveHint?: boolean;
  /** The same call twice has the effect of one (only meaningful when not read-only). */
  idempotentHint?: boolean;
  /** Reaches an open world: the network, or whatever a shell command touches. */
  openWorldHint: boolean;
}

export const SERVED_TOOL_HINTS: Readonly<Record<string, ServedHints>> = Object.freeze({
  get_current_time: { title: 'Current time', readOnlyHint: true, openWorldHint: false },
  // Any command: it may delete files, reach the network, and running it twice is not running it once.
  run_shell: {
    title: 'Run a shell command',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
  ls: { title: 'List a folder', readOnlyHint: true, openWorldHint: false },
  read: { title: 'Read a file', readOnlyHint: true, openWorldHint: false },
  glob: { title: 'Find files by pattern', readOnlyHint: true, openWorldHint: false },
  search: { title: 'Search file contents', readOnlyHint: true, openWorldHint: false },
  // A guarded GET: changes nothing here, but reads the open web.
  fetch: { title: 'Fetch a URL', readOnlyHint: true, openWorldHint: true },
  // Replaces a file's whole content; writing the same content again changes nothing more.
  write: {
    title: 'Write a file',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  // Edits in place; a second application of the same edit no longer finds its old text.
  patch: {
    title: 'Edit a file',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  // A fact close to an existing memory replaces that memory's text; the same fact twice is one entry.
  // Scope "user" writes the person's memory for every project: asked (elicitation) in a folder the
  // person has not trusted, refused when the client cannot be asked (memory/feature/extension.ts).
  memory_write: {
    title: 'Remember a fact',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  memory_search: { title: 'Search memory', readOnlyHint: true, openWorldHint: false },
  memory_delete: {
    title: 'Forget a memory',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  // Adds (or re-indexes) a source: nothing a person wrote is lost; URLs are fetched from the web.
  rag_add: {
    title: 'Add to the knowledge base',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  rag_search: { title: 'Search the knowledge base', readOnlyHint: true, openWorldHint: false },
});
