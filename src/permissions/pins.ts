/**
 * Pinned MCP tool definitions, `<userDir>/projects/<key>/mcp-pins.json` (the person's own state
 * for the folder; nothing in the repository): what each (server, tool) looked like —
 * name, title, description, input schema, annotations, and the model-facing name it had — when it
 * first ran under an `allow` or a person approved it. A later difference is reported so the
 * policy store can drop the `allow` back to `ask`. Read lazily, written under a lock, atomically.
 * An earlier version's `<project>/.geekagent/mcp-pins.json` is read while the person's own file does
 * not exist yet (and carried into it by the first pin): a pin only ever makes a call ask more, so
 * even a planted one grants nothing.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { userProjectDir } from '../config/project-state.js';
import { withFileLock } from '../util/file-lock.js';
import { ConfigError, describeSchemaError, parseJsonText } from '../util/json-file.js';
import { UnsafePathError, writeFileAtomic } from '../util/safe-write.js';
import * as z from '../util/schema.js';
import { ensureUserStateFolder, readStateFile } from '../util/state-dir.js';
import { visibleLine } from '../util/terminal-text.js';
import { canonicalJson, describeDefinitionChanges, type ToolDefinition } from './pin-diff.js';

export type { ToolDefinition } from './pin-diff.js';

/** One MCP tool as the policy store and `mcp approve` see it. */
export interface PinnedTool {
  server: string;
  /** The model-facing name (`mcp_<server>_<tool>`, maybe with a hash suffix). */
  modelName: string;
  definition: ToolDefinition;
}

export type PinCheck = { state: 'unpinned' } | { state: 'same' } | { state: 'changed'; changes: string[] };

const buildRecordSchema = () =>
  z.object({
    server: z.string(),
    modelName: z.string(),
    hash: z.string(),
    definition: z.object({
      name: z.string(),
      title: z.optional(z.string()),
      description: z.optional(z.string()),
      inputSchema: z.optional(z.unknown()),
      annotations: z.optional(z.unknown()),
    }),
  });
// Built when a pins file is read, not at every start.
const fileSchema = z.lazySchema(() =>
  z.looseObject({ version: z.literal(1), pins: z.array(buildRecordSchema()) }),
);

type PinRecord = z.infer<ReturnType<typeof buildRecordSchema>>;

/** Where a folder's pins live: the person's own state, and an earlier version's file in the folder. */
export function mcpPinsPlaces(projectDir: string, userDir: string): PinPlaces {
  return {
    file: path.join(userProjectDir(userDir, projectDir), 'mcp-pins.json'),
    stateBase: userDir,
    legacy: path.join(projectDir, '.geekagent', 'mcp-pins.json'),
  };
}

export interface PinPlaces {
  file: string;
  /** The user's state folder holding `file` (its folders made 0700, never through a link). */
  stateBase?: string;
  /** An earlier version's pins file, read while `file` is missing. */
  legacy?: string;
}

/** sha256 over the canonical JSON of the definition's fields (key order never matters). */
export function definitionHash(definition: ToolDefinition): string {
  const { name, title, description, inputSchema, annotations } = definition;
  const digest = createHash('sha256')
    .update(canonicalJson({ name, title, description, inputSchema, annotations }))
    .digest('hex');
  return `sha256:${digest}`;
}

export class PinStore {
  private records: PinRecord[] | undefined;
  private loading: Promise<void> | undefined;
  private problem: string | undefined;
  /** Pinned by this process, not yet confirmed on disk. */
  private unwritten: PinRecord[] = [];
  /** Writes run one at a time; each re-reads the file under the lock. */
  private writing: Promise<unknown> = Promise.resolve();
  /**
   * Each listed definition's hash, made once per definition rather than at every call's check (a
   * re-listing brings new definition objects, so a changed definition is hashed afresh).
   */
  private readonly hashes = new WeakMap<ToolDefinition, string>();
  private readonly hashOf = (definition: ToolDefinition): string => {
    let hash = this.hashes.get(definition);
    if (hash === undefined) {
      hash = definitionHash(definition);
      this.hashes.set(definition, hash);
    }
    return hash;
  };

  readonly file: string;
  private readonly places: PinPlaces;

  /** A path alone: that file only (no earlier version's, its folder simply created). */
  constructor(places: string | PinPlaces) {
    this.places = typeof places === 'string' ? { file: places } : places;
    this.file = this.places.file;
  }

  /** Reads the file ahead of the first check, so a call does not wait for it. */
  preload(): void {
    this.loading ??= this.reload();
  }

  /**
   * How `tool` compares with its pin. With `bindName`, a tool that has no pin of its own but whose
   * model-facing name was pinned for another (server, tool) counts as changed: a rule written for
   * that name was meant for the other tool.
   */
  async check(tool: PinnedTool, options: { bindName: boolean }): Promise<PinCheck> {
    this.preload();
    await this.loading;
    const first = compare(this.records ?? [], tool, options.bindName, this.hashOf);
    if (first.state !== 'changed') return first;
    // `geekagent mcp approve` in another terminal may have re-pinned it meanwhile.
    await this.reload();
    return compare(this.records ?? [], tool, options.bindName, this.hashOf);
  }

  /** Resolves when every pin written so far is on disk (failures are reported by `pin`). */
  async flush(): Promise<void> {
    await this.writing;
  }

  /** A broken pins file, reported once (it is replaced by the next pin). */
  takeProblem(): string | undefined {
    const problem = this.problem;
    this.problem = undefined;
    return problem;
  }

  /** Pins these definitions (replacing their old pins and any other pin of the same model name). */
  async pin(tools: readonly PinnedTool[]): Promise<void> {
    // Memory first, so parallel calls of a freshly pinned tool agree at once.
    this.records = withPins(this.records ?? [], tools);
    this.unwritten = withPins(this.unwritten, tools);
    const write = this.writing.then(() =>
      (async () => {
        const { stateBase } = this.places;
        if (stateBase !== undefined) ensureUserStateFolder(stateBase, path.dirname(this.file), 'MCP pins');
        await withFileLock(
          this.file,
          async () => {
            const read = await this.read();
            const text = `${JSON.stringify({ version: 1, pins: withPins(read.records, tools) }, null, 2)}\n`;
            await writeFileAtomic(this.file, text, { mode: 0o600 });
          },
          { mode: 0o600 },
        );
      })(),
    );
    this.writing = write.catch(() => undefined);
    await write;
    this.unwritten = this.unwritten.filter(
      (record) =>
        !tools.some((tool) => sameTool(record, tool) && record.hash === definitionHash(tool.definition)),
    );
  }

  /** The person's file; while it does not exist, an earlier version's in the folder. */
  private async read(): Promise<{ records: PinRecord[]; problem?: string }> {
    const own = await readPins(this.file);
    if (own !== 'missing' || this.places.legacy === undefined)
      return own === 'missing' ? { records: [] } : own;
    const legacy = await readPins(this.places.legacy);
    return legacy === 'missing' ? { records: [] } : legacy;
  }

  private async reload(): Promise<void> {
    const read = await this.read();
    // Pins of this process not on disk yet still hold.
    this.records = withPins(read.records, this.unwritten);
    if (read.problem) this.problem = read.problem;
  }
}

async function readPins(file: string): Promise<{ records: PinRecord[]; problem?: string } | 'missing'> {
  try {
    const text = await readStateFile(file);
    if (text === undefined) return 'missing';
    const parsed = fileSchema().safeParse(await parseJsonText(text, file));
    if (parsed.success) return { records: parsed.data.pins };
    return { records: [], problem: `ignored ${describeSchemaError(file, parsed.error)}` };
  } catch (error) {
    const message = (error as Error).message;
    // A JSON or link refusal names the file already; a system error does not.
    const named = error instanceof ConfigError || error instanceof UnsafePathError;
    return { records: [], problem: `pins ignored: ${named ? message : `cannot read ${file}: ${message}`}` };
  }
}

function compare(
  records: readonly PinRecord[],
  tool: PinnedTool,
  bindName: boolean,
  hashOf: (definition: ToolDefinition) => string,
): PinCheck {
  const own = records.find((record) => sameTool(record, tool));
  if (own) {
    if (own.hash === hashOf(tool.definition)) return { state: 'same' };
    const changes = describeDefinitionChanges(own.definition, tool.definition);
    return { state: 'changed', changes: changes.length > 0 ? changes : ['its pin does not match'] };
  }
  const other = bindName ? records.find((record) => record.modelName === tool.modelName) : undefined;
  if (!other) return { state: 'unpinned' };
  return {
    state: 'changed',
    changes: [
      `${tool.modelName} was approved as tool "${visibleLine(other.definition.name)}" of server ${visibleLine(other.server)}, now it is tool "${visibleLine(tool.definition.name)}" of server ${visibleLine(tool.server)}`,
    ],
  };
}

function sameTool(record: PinRecord, tool: PinnedTool): boolean {
  return record.server === tool.server && record.definition.name === tool.definition.name;
}

function withPins(records: readonly PinRecord[], tools: readonly PinnedTool[]): PinRecord[] {
  const kept = records.filter(
    (record) => !tools.some((tool) => sameTool(record, tool) || record.modelName === tool.modelName),
  );
  return [
    ...kept,
    ...tools.map((tool) => ({
      server: tool.server,
      modelName: tool.modelName,
      hash: definitionHash(tool.definition),
      definition: tool.definition,
    })),
  ];
}
