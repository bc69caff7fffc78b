/**
 * Named models: the person's own `models.json` in the user state folder (`GEEKAGENT_HOME`, default
 * `~/.geekagent`), never a project's — a cloned folder must not choose where requests and keys go.
 * `--model NAME` and `/model NAME` look a name up here first. A broken file costs the names, never
 * the start: the problem comes back as a notice naming the file and the field.
 */
import path from 'node:path';
import type { SettingsFiles } from '../settings/files.js';
import { readSectionFile, type SettingsSection } from '../settings/section.js';
import { jsonPath, type SchemaError } from '../util/json-file.js';
import * as z from '../util/schema.js';
import { PROVIDER_KINDS, type ProviderKind } from './provider-kinds.js';

export const MODELS_FILE = 'models.json';

export interface NamedModel {
  provider: ProviderKind;
  model: string;
  baseURL?: string;
  /** The variable the key is read from (default: the provider's own, e.g. ANTHROPIC_API_KEY). */
  keyVariable?: string;
  contextWindow?: number;
  /** Whether tool results may carry images to it (default: decided from the model name). */
  media?: boolean;
}

export interface NamedModels {
  /** Where they were read from (named in messages). */
  file: string;
  models: ReadonlyMap<string, NamedModel>;
  /** Why the file's names are not available (unreadable, not JSON, a field wrong); a notice. */
  problem?: string;
}

// Built on first use: most runs have no models.json.
const namedModelSchema = z.lazySchema(() => {
  const nonEmpty = z.string().check(z.trim(), z.minLength(1));
  return z.strictObject({
    provider: z.enum(PROVIDER_KINDS),
    model: nonEmpty,
    baseURL: z.optional(
      z.string().check(z.refine((url) => /^https?:\/\/\S+$/.test(url), 'must be an http(s) URL')),
    ),
    keyVariable: z.optional(
      z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')),
    ),
    contextWindow: z.optional(z.int().check(z.minimum(1), z.maximum(100_000_000))),
    media: z.optional(z.boolean()),
  });
});

const buildModelsFileSchema = () => z.looseObject({ models: z.record(z.string(), z.unknown()) });
const modelsFileSchema = z.lazySchema(buildModelsFileSchema);

/**
 * models.json as the settings model reads it: one section, the user's file only. Its entries are
 * checked one by one (a wrong one is left out, the others stay usable).
 */
export const namedModelsSection: SettingsSection<z.infer<ReturnType<typeof buildModelsFileSchema>>> = {
  key: '',
  file: 'models.json',
  get schema() {
    return modelsFileSchema();
  },
  scopes: { user: 'set' },
  invalid: 'report',
};

/** A name `/model NAME` can take: one word. */
const NAME = /^[^\s/]+$/;

export function modelsFile(userDir: string): string {
  return path.join(userDir, MODELS_FILE);
}

/**
 * Reads `<userDir>/models.json`. Missing: no names. An entry that is wrong is left out and named
 * (file, JSON path, what is wrong) in `problem`; the others stay usable.
 */
export async function loadNamedModels(userDir: string, files?: SettingsFiles): Promise<NamedModels> {
  const file = modelsFile(userDir);
  const models = new Map<string, NamedModel>();
  const top = await readSectionFile(files, namedModelsSection, file);
  if (!top.found) {
    if (top.problem === undefined) return { file, models };
    const message = top.unreadable ? top.problem : `${file}: ${describeIssues(top.issues ?? [], [])}`;
    return { file, models, problem: `${message} — named models are not available this run` };
  }
  const wrong: string[] = [];
  for (const [name, value] of Object.entries(top.value.models)) {
    if (!NAME.test(name)) {
      wrong.push(`at ${jsonPath(['models', name])}: a model name is one word without "/"`);
      continue;
    }
    const entry = namedModelSchema().safeParse(value);
    if (entry.success) models.set(name, entry.data);
    else wrong.push(describeIssues(entry.error.issues, ['models', name]));
  }
  if (wrong.length === 0) return { file, models };
  return {
    file,
    models,
    problem: `${file}: ${wrong.join('; ')} — ${wrong.length === 1 ? 'that model is' : 'those models are'} left out`,
  };
}

/** `at models.alt.provider: …; at models.alt.baseURL: …` — one line, for a notice. */
function describeIssues(issues: SchemaError['issues'], prefix: readonly PropertyKey[]): string {
  return issues.map((issue) => `at ${jsonPath([...prefix, ...issue.path])}: ${issue.message}`).join('; ');
}
