/**
 * The layer rule: folder dependencies point one way — faces (cli → tui, acp) → app, serve → boot → features
 * (sessions) → extensions → agent/trust → mcp → providers/permissions → tools (the contract, the
 * built-in tools, the executor)/commands → sandbox/workspace (files inside the root) →
 * config/process → settings → util. Reads every import of src/** (static, dynamic, require, import types)
 * with TypeScript's pre-processor and fails on one that runs back up or sideways between two
 * folders of the same layer. OpenAI wire types stay in providers/.
 *
 * A feature is a folder. Where that folder also holds an engine lower layers use (memory/, rag/,
 * mcp/, sandbox/, permissions/, …), the feature's seam part — its extension, its tools, its trust
 * declarations — sits in `<folder>/feature/`: that part ranks at the features layer (it uses the
 * seam, extensions/), may use its own folder's engine, and no lower file may import it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
// TypeScript 7 (the project's compiler) is native, without a JS API: its 5.9 API under an alias.
import ts from 'typescript-api';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/paths.js';

const SRC = path.join(REPO_ROOT, 'src');

/** Higher may import lower; equal ranks may not import each other. */
const LAYERS: Record<string, number> = {
  util: 0,
  // The settings model: scopes, the files of each, one read per file per run, sections and their
  // sources. Every reader (config/, sandbox/, permissions/, hooks) declares its section on it.
  settings: 0.5,
  // The providers' specs (providers/specs.ts, provider-spec.ts, <provider>/spec.ts): data about each
  // model API — variables, defaults, model tables, image limits — that config/ reads. Not a folder:
  // those files of providers/ (see layerOf). They import nothing but each other, and each spec's
  // loader, a dynamic import of its own folder's request.ts (SPEC_LOADER), runs only on that provider.
  'provider-specs': 0.5,
  config: 1,
  // The one search module (BM25F): a leaf that tool search, memory and the knowledge base share.
  search: 1,
  process: 1,
  // Plugins (Claude Code's and Gemini CLI's formats): reading, installing and listing their parts
  // (config + util only); each feature reads the lists they give, create-app hands them over.
  plugins: 1.2,
  // The command sandbox: above config/process/util, below the Tool contract (tools/ names its type).
  sandbox: 1.5,
  // Files inside the permission root: the root sandbox, link-safe file I/O, protected paths. The
  // built-in tools use them, the Tool contract names their types, permissions/undo restores through them.
  workspace: 1.5,
  // Long-term memory: its files and the index over them (search + util only).
  memory: 2,
  tools: 2,
  commands: 2,
  permissions: 3,
  providers: 3,
  mcp: 4,
  // The knowledge base: reads sources (URLs through the fetch tool's guarded request) into the index.
  rag: 4,
  agent: 5,
  trust: 5,
  // Deferred tools (which MCP tools stay out of a request, the index over them): the engine of the
  // tool-search feature, below the seam because skills/ names its tool.
  'tool-search': 5.5,
  // The seam only: Extension types, host, order, tool set.
  extensions: 6,
  sessions: 7,
  // Skills are a feature on the seam, beside sessions (it only sees the session's id).
  skills: 7,
  subagents: 7,
  // Lifecycle hooks: a feature on the seam (their settings reader is config/hook-settings.ts).
  hooks: 7,
  // Custom Markdown commands (.geekagent/commands, .claude/commands): a feature on the seam, beside skills.
  'custom-commands': 7,
  // `@path` mentions and attached images: a feature on the seam (reads files like the file tools).
  mentions: 7,
  // The session's todo list and the todo_write tool.
  todos: 7,
  // /model, named models and the model of a `.env`.
  'model-choice': 7,
  // AGENTS.md / GEEKAGENT.md and their imports, read into the system prompt.
  'project-instructions': 7,
  // The bootstrap the agent and `mcp serve` share: folder, permissions, policies, tool runtime, host.
  boot: 7.5,
  app: 8,
  // `geekagent mcp serve`: the built-in tools behind an MCP server, beside app (both start from boot/).
  serve: 8,
  tui: 9,
  // `geekagent acp`: the editor face (Agent Client Protocol), beside the TUI.
  acp: 9,
  // stream-json's loop and message shapes (and print mode's result object): the CLI's stream-json
  // output and the library share them; beside the TUI and ACP.
  'stream-json': 9,
  cli: 10,
  // The TypeScript library (`import { query } from "geekagent"`): the stream-json face's loop, in-process.
  library: 11,
};

interface Import {
  file: string;
  from: string;
  to: string;
  specifier: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The files of providers/ that make the `provider-specs` layer. */
const SPEC_FILE = /^providers\/(specs|provider-spec|[\w-]+\/spec)\.ts$/;
/** The one import up from a spec: its loader's `import('./request.js')`. */
const SPEC_LOADER = './request.js';
/** Where a folder's feature part sits: `<folder>/feature/`. */
const FEATURE_PART = 'feature';
/** The rank of a feature part: the features layer, above the seam. */
const FEATURES_RANK = 7;

/**
 * The layer a path under src/ belongs to: its top folder, or `<folder>/feature` for a file of a
 * folder's feature part (provider specs: their own layer).
 */
function layerOf(relative: string): string {
  if (SPEC_FILE.test(relative.split(path.sep).join('/'))) return 'provider-specs';
  const [top, second, ...rest] = relative.split(path.sep);
  return second === FEATURE_PART && rest.length > 0 ? `${top}/${FEATURE_PART}` : top!;
}

function rankOf(layer: string): number | undefined {
  return layer.endsWith(`/${FEATURE_PART}`) ? FEATURES_RANK : LAYERS[layer];
}

/** Whether an import from layer `from` to layer `to` runs down (or stays inside one layer). */
function allowed(from: string, to: string): boolean {
  if (to === from) return true;
  // A feature part uses its own folder's engine, whatever that folder's rank.
  if (from === `${to}/${FEATURE_PART}`) return true;
  return (rankOf(to) ?? Number.POSITIVE_INFINITY) < (rankOf(from) ?? -1);
}

/**
 * Every module the file names: static imports and re-exports, dynamic `import()`, `require()` and
 * import types, as TypeScript's own pre-processor reads them (a string that merely looks like an
 * import — a help text, a comment — is not one).
 */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const from = layerOf(path.relative(SRC, file));
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.map(({ fileName: specifier }) => {
    if (!specifier.startsWith('.')) return { file, from, to: `npm:${specifier}`, specifier };
    const target = path.relative(SRC, path.resolve(path.dirname(file), specifier)).replace(/\.js$/, '.ts');
    return { file, from, to: layerOf(target), specifier };
  });
}

const all = sourceFiles(SRC).flatMap(importsOf);

describe('layers', () => {
  it('knows every folder under src/', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => LAYERS[folder] === undefined)).toEqual([]);
  });

  it('keeps feature parts in folders below the features layer', () => {
    // A folder at the features layer or above holds its extension at its top; a `feature/` there
    // would only be a second name for the same rank.
    const misplaced = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .filter((entry) => readdirSync(path.join(SRC, entry.name)).includes(FEATURE_PART))
      .filter((entry) => (LAYERS[entry.name] ?? 0) >= FEATURES_RANK)
      .map((entry) => entry.name);
    expect(misplaced).toEqual([]);
  });

  it('ranks a feature part at the features layer, with its own folder below it', () => {
    const part = layerOf(path.join('memory', FEATURE_PART, 'extension.ts'));
    expect(part).toBe('memory/feature');
    expect(layerOf(path.join('memory', 'bank.ts'))).toBe('memory');
    // The part uses its engine and the seam; the engine, a lower layer or another feature part never uses it.
    expect(allowed(part, 'memory')).toBe(true);
    expect(allowed(part, 'extensions')).toBe(true);
    expect(allowed('memory', part)).toBe(false);
    expect(allowed('tools', part)).toBe(false);
    expect(allowed('extensions', part)).toBe(false);
    expect(allowed('rag/feature', part)).toBe(false);
    expect(allowed('skills', part)).toBe(false);
    // Above the features layer, the composition lists it.
    expect(allowed('boot', part)).toBe(true);
    expect(allowed('app', part)).toBe(true);
    // Another folder's engine is ranked as that folder.
    expect(allowed(part, 'app')).toBe(false);
  });

  it('finds the imports of feature parts', () => {
    expect(all.filter((i) => i.from === 'memory/feature' && i.to === 'memory').length).toBeGreaterThan(0);
    expect(all.filter((i) => i.from === 'boot' && i.to === 'memory/feature').length).toBeGreaterThan(0);
  });

  it('finds the imports it checks', () => {
    // A parser that found nothing would pass everything.
    expect(all.filter((i) => i.from === 'app' && i.to === 'agent').length).toBeGreaterThan(0);
    expect(all.filter((i) => i.from === 'cli' && i.to === 'tui').length).toBeGreaterThan(0);
    expect(all.filter((i) => i.from === 'config' && i.to === 'provider-specs').length).toBeGreaterThan(0);
    expect(
      all.filter((i) => i.specifier === SPEC_LOADER && i.from === 'provider-specs').length,
    ).toBeGreaterThan(1);
  });

  it('reads imports, not text that looks like one', () => {
    const source = [
      "import { a } from './static.js';",
      "export { b } from './reexport.js';",
      "const c = await import('./dynamic.js');",
      "type D = import('./typed.js').D;",
      "const help = 'usage: import x from \\'./not-an-import.js\\'';",
      "// import { e } from './comment.js';",
    ].join('\n');
    expect(ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName)).toEqual([
      './static.js',
      './reexport.js',
      './dynamic.js',
      './typed.js',
    ]);
  });

  it('has no import that runs back up a layer or sideways across one', () => {
    const violations = all
      .filter((i) => !i.to.startsWith('npm:') && !allowed(i.from, i.to))
      .filter((i) => !(i.from === 'provider-specs' && i.to === 'providers' && i.specifier === SPEC_LOADER))
      .map((i) => `${path.relative(REPO_ROOT, i.file)} (${i.from}) imports ${i.specifier} (${i.to})`);
    expect(violations).toEqual([]);
  });

  it('keeps trust free of file-level import circles (its parts once imported declarations.ts back)', () => {
    const inTrust = (file: string) => path.relative(SRC, file).split(path.sep)[0] === 'trust';
    const edges = new Map<string, string[]>();
    for (const i of all.filter((i) => inTrust(i.file) && !i.to.startsWith('npm:'))) {
      const target = path.resolve(path.dirname(i.file), i.specifier).replace(/\.js$/, '.ts');
      if (inTrust(target)) edges.set(i.file, [...(edges.get(i.file) ?? []), target]);
    }
    expect(circles(edges).map((circle) => circle.map((file) => path.relative(SRC, file)))).toEqual([]);
    // The check finds a circle when there is one.
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b']]);
  });

  it('keeps the OpenAI SDK and its wire types inside providers/', () => {
    const leaks = all
      .filter((i) => i.to === 'npm:openai' || i.to.startsWith('npm:openai/'))
      .filter((i) => i.from !== 'providers')
      .map((i) => path.relative(REPO_ROOT, i.file));
    expect(leaks).toEqual([]);
  });
});

/** Each import circle of `edges` once, as the files on it (from the first one reached). */
function circles(edges: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, trail: string[]) => {
    const at = trail.indexOf(file);
    if (at >= 0) {
      found.push(trail.slice(at));
      return;
    }
    if (done.has(file)) return;
    for (const next of edges.get(file) ?? []) visit(next, [...trail, file]);
    done.add(file);
  };
  for (const file of edges.keys()) visit(file, []);
  return found;
}
