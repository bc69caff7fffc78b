/**
 * Model selection from the editor: the session's `model` config option (a select of the current
 * model and every name in the person's models.json), switched through the same `/model` command
 * the terminal uses, so the choice is recorded in the session as there.
 */
import type { SessionConfigOption } from '@agentclientprotocol/sdk/unstable';
import type { App } from '../app/create-app.js';
import { loadNamedModels } from '../config/named-models.js';

export const MODEL_OPTION = 'model';

export async function modelOptions(app: Pick<App, 'settings' | 'userDir'>): Promise<SessionConfigOption[]> {
  const named = await loadNamedModels(app.userDir);
  const settings = app.settings;
  const current = settings.name ?? settings.model;
  const options: Array<{ value: string; name: string; description: string }> = named.models.has(current)
    ? []
    : [{ value: current, name: settings.model, description: settings.provider }];
  for (const [name, entry] of named.models)
    options.push({ value: name, name, description: `${entry.provider} · ${entry.model}` });
  return [
    {
      id: MODEL_OPTION,
      name: 'Model',
      description: 'The model this session asks (names from ~/.geekagent/models.json)',
      category: 'model',
      type: 'select',
      currentValue: current,
      options,
    },
  ];
}

/** The value is one the option offers (a name, never a command line). */
export function offered(options: readonly SessionConfigOption[], value: string): boolean {
  const option = options.find((item) => item.id === MODEL_OPTION);
  if (option?.type !== 'select') return false;
  return option.options.some((item) => 'value' in item && item.value === value);
}
