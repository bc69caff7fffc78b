/**
 * Which model the session talks to, and `/model` to see and change it. `ModelChoice` holds the
 * current settings and the switchable provider every part of the app was handed; a switch makes
 * the new provider and points the switchable one at it, so the conversation goes on with the whole
 * history. The choice is session state (one line of the session file), so `--resume`, `--continue`
 * and `/open` continue on the model the session was on.
 */
import type { Conversation } from '../agent/conversation.js';
import { type ModelSettings, switchedModelSettings } from '../config/model-settings.js';
import { missingKeyMessage } from '../config/model-setup.js';
import type { NamedModels } from '../config/named-models.js';
import type { Extension } from '../extensions/types.js';
import { SwitchableProvider } from '../providers/switchable.js';
import type { ChatProvider } from '../providers/types.js';
import { errorMessage } from '../util/errors.js';
import { visibleLine } from '../util/terminal-text.js';

const STATE_KEY = 'model';

/** What the session file keeps: the name chosen, and where a plain model id belonged. */
interface RecordedChoice {
  name: string;
  provider: string;
}

export interface ModelChoiceOptions {
  /** The settings environment (the real one, plus a trusted folder's `.env`). */
  env: NodeJS.ProcessEnv;
  named: NamedModels;
  /** Reads models.json again (`/model` does before it lists or switches: a name added later works). */
  reload?: () => Promise<NamedModels>;
  initial: ModelSettings;
  /** Makes a provider for settings (the registry, with the run's redaction). */
  make(settings: ModelSettings): ChatProvider;
}

export type ChoiceResult = { ok: true; settings: ModelSettings } | { ok: false; message: string };

export class ModelChoice {
  readonly provider: SwitchableProvider;
  #settings: ModelSettings;
  #named: NamedModels;

  constructor(private readonly options: ModelChoiceOptions) {
    this.#settings = options.initial;
    this.#named = options.named;
    this.provider = new SwitchableProvider(options.make(options.initial));
  }

  get settings(): ModelSettings {
    return this.#settings;
  }

  get named(): NamedModels {
    return this.#named;
  }

  /** models.json as it is now; a file that cannot be read keeps the names read before. */
  async refresh(): Promise<void> {
    if (!this.options.reload) return;
    try {
      this.#named = await this.options.reload();
    } catch {
      // loadNamedModels reports problems in `problem`; anything else leaves the list as it was.
    }
  }

  /** A name from models.json, or a model id for the current provider; kept unchanged when it cannot be used. */
  choose(name: string): ChoiceResult {
    let next: ModelSettings;
    try {
      next = switchedModelSettings(
        this.options.env,
        this.#settings,
        name,
        this.#named.models,
        this.#named.file,
      );
    } catch (error) {
      return { ok: false, message: `${errorMessage(error)} — staying on ${describeModel(this.#settings)}` };
    }
    if (!next.apiKey) {
      return {
        ok: false,
        message: `${missingKeyMessage(next.keyVariable)} — ${name} needs it; staying on ${describeModel(this.#settings)}`,
      };
    }
    const provider = this.options.make(next);
    this.#settings = next;
    this.provider.switchTo(provider);
    provider.prepare?.();
    return { ok: true, settings: next };
  }

  /**
   * Switches for a while (a custom command's `model:`, for its turn); `restore` goes back to
   * exactly the settings and provider before — unless something switched again in between.
   */
  borrow(name: string): { ok: true; restore(): void } | { ok: false; message: string } {
    const before = this.#settings;
    const provider = this.provider.current;
    const result = this.choose(name);
    if (!result.ok) return result;
    return {
      ok: true,
      restore: () => {
        if (this.#settings !== result.settings) return;
        this.#settings = before;
        this.provider.switchTo(provider);
      },
    };
  }
}

/** `anthropic · claude-sonnet-4-5` (and the models.json name when it is not the model id). */
export function describeModel(settings: ModelSettings): string {
  const label = `${settings.provider} · ${settings.model}`;
  return settings.name !== undefined && settings.name !== settings.model
    ? `${settings.name} (${label})`
    : label;
}

export interface ModelChoiceExtensionOptions {
  conversation: Conversation;
  /**
   * `--model` or `--provider` was given: the run's flags win over the model a resumed session
   * was on (and the session records the flags' choice from now on).
   */
  explicit: boolean;
}

export function modelChoiceExtension(choice: ModelChoice, options: ModelChoiceExtensionOptions): Extension {
  const { conversation } = options;
  // Whether this run chose a model other than by its flags: a new or reset session records it.
  let chosen = false;
  const record = (): void => {
    const value: RecordedChoice = {
      name: choice.settings.name ?? choice.settings.model,
      provider: choice.settings.provider,
    };
    conversation.setState(STATE_KEY, value);
  };
  return {
    name: 'model-choice',
    setup(host) {
      // The conversation as it is now (a resumed one), and each one opened or started later.
      const follow = (atStart: boolean): void => {
        const recorded = parseRecorded(conversation.state(STATE_KEY));
        if (recorded === undefined) {
          if (chosen) record();
          return;
        }
        if (atStart && options.explicit) {
          if (!sameChoice(recorded, choice.settings)) record();
          return;
        }
        if (sameChoice(recorded, choice.settings)) return;
        if (!choice.named.models.has(recorded.name) && recorded.provider !== choice.settings.provider) {
          host.notice(
            `this session was on ${visibleLine(`${recorded.provider} · ${recorded.name}`)}, which is not in ${choice.named.file}: continuing on ${describeModel(choice.settings)}`,
          );
          return;
        }
        const result = choice.choose(recorded.name);
        if (!result.ok) {
          host.notice(`the session's model is not available: ${result.message}`, 'error');
          return;
        }
        chosen = true;
        host.notice(`continuing on ${describeModel(result.settings)}`);
        host.changed();
      };
      follow(true);
      conversation.onChange((change) => {
        if (change.type === 'load' || (change.type === 'truncate' && change.after === null)) follow(false);
      });

      host.commands.add({
        name: 'model',
        usage: '/model [name]',
        description: 'list the named models (models.json), or switch the session to one (or to a model id)',
        idleOnly: true,
        run: async (args, ctx) => {
          const asked = args.join(' ').trim();
          await choice.refresh();
          if (asked === '') {
            ctx.print(listModels(choice));
            return;
          }
          // A name must be in models.json; a model id of the current provider is asked for as one,
          // so a mistyped name is not silently sent as an id that fails on the next turn.
          const name = asked.startsWith(MODEL_ID_PREFIX) ? asked.slice(MODEL_ID_PREFIX.length).trim() : asked;
          if (name === asked && !choice.named.models.has(name)) {
            ctx.print(visibleLine(unknownName(choice, name)), 'error');
            return;
          }
          if (name === '') {
            ctx.print('/model id:MODEL takes a model id, e.g. /model id:gpt-5.1', 'error');
            return;
          }
          const result = choice.choose(name);
          if (!result.ok) {
            ctx.print(visibleLine(result.message), 'error');
            return;
          }
          chosen = true;
          record();
          host.changed();
          ctx.print(`switched to ${visibleLine(describeModel(result.settings))}; the conversation goes on`);
        },
      });
    },
  };
}

/** The current model and every named one, the current marked. */
export function listModels(choice: ModelChoice): string {
  const { settings, named } = choice;
  const lines = [`current: ${describeModel(settings)} at ${settings.baseURL}`];
  if (named.problem) lines.push(named.problem);
  if (named.models.size === 0) {
    if (!named.problem) lines.push(`no named models: add them to ${named.file}`);
  } else {
    lines.push(`named models (${named.file}):`);
    const width = Math.max(...[...named.models.keys()].map((name) => name.length));
    for (const [name, entry] of named.models) {
      const current =
        settings.name === name || (settings.name === undefined && entryMatches(entry, settings));
      lines.push(
        `${current ? '*' : ' '} ${name.padEnd(width)}  ${entry.provider} · ${entry.model}${current ? '  (current)' : ''}`,
      );
    }
  }
  lines.push(
    `/model NAME switches to a name above; /model ${MODEL_ID_PREFIX}MODEL to a model id of the current provider (${settings.provider})`,
  );
  return lines.map(visibleLine).join('\n');
}

/** `/model id:gpt-5.1`: a model id of the current provider rather than a models.json name. */
const MODEL_ID_PREFIX = 'id:';

function unknownName(choice: ModelChoice, name: string): string {
  const { named, settings } = choice;
  const names = [...named.models.keys()];
  return [
    `no model named "${name}" in ${named.file}`,
    names.length > 0 ? ` (named: ${names.join(', ')})` : '',
    `; add it there, or use /model ${MODEL_ID_PREFIX}${name} for a model id of the current provider (${settings.provider}); staying on ${describeModel(settings)}`,
  ].join('');
}

function entryMatches(entry: { provider: string; model: string }, settings: ModelSettings): boolean {
  return entry.provider === settings.provider && entry.model === settings.model;
}

function sameChoice(recorded: RecordedChoice, settings: ModelSettings): boolean {
  return recorded.provider === settings.provider && recorded.name === (settings.name ?? settings.model);
}

function parseRecorded(value: unknown): RecordedChoice | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { name, provider } = value as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '' || typeof provider !== 'string') return undefined;
  return { name, provider };
}
