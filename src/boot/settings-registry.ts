/**
 * The section registry: every section a run reads from the settings files (each declared by its
 * feature), and the run's effective settings with their sources, for `geekagent config`. Reads
 * through the folder's settings model (each file once) after the run's one trust decision: an
 * untrusted folder's files count only where they tighten, exactly as for the agent.
 */
import { hookSettingsSection } from '../config/hook-settings.js';
import { resolveModelSettingsWithSources } from '../config/model-settings.js';
import { loadNamedModels, modelsFile, namedModelsSection } from '../config/named-models.js';
import { loadMcpServers } from '../mcp/config.js';
import { permissionSettingsSection } from '../permissions/config.js';
import { describePermissionSettings } from '../permissions/settings-view.js';
import {
  describeSandboxSettings,
  runSandboxMode,
  type SandboxMode,
  sandboxSettingsSection,
} from '../sandbox/index.js';
import { flattenSection, type Setting } from '../settings/effective.js';
import { readSection, type SettingSource, type SettingsSection } from '../settings/section.js';
import type { Folder } from './bootstrap.js';

/** Every section of the settings files, by feature (mcp.json is read by mcp/config.ts). */
export const SETTINGS_SECTIONS: readonly SettingsSection<unknown>[] = [
  permissionSettingsSection,
  sandboxSettingsSection,
  hookSettingsSection,
  namedModelsSection,
] as readonly SettingsSection<unknown>[];

/** Variables whose value is a credential: shown as set, never shown. */
const SECRET_VARIABLE = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

export interface EffectiveSettingsFlags {
  model?: string;
  baseURL?: string;
  provider?: string;
  sandbox?: SandboxMode;
}

export interface EffectiveSettings {
  settings: Setting[];
  /** Sections left out (a broken hooks section, a wrong models.json entry), as notices. */
  problems: string[];
}

export async function effectiveSettings(
  folder: Folder,
  flags: EffectiveSettingsFlags,
): Promise<EffectiveSettings> {
  const { projectDir, userDir, homeDir, trusted, settingsFiles: files } = folder;
  const places = { projectDir, userDir };
  const problems: string[] = [];
  const settings: Setting[] = [];

  // Every scope is read (a broken file stops `config` as it stops a run); trust decides what counts.
  const permissions = await readSection(files, permissionSettingsSection, places);
  settings.push(...describePermissionSettings(permissions.layers, trusted));

  const sandbox = await readSection(files, sandboxSettingsSection, places);
  const run = runSandboxMode(flags.sandbox, folder.env);
  if (run.ignored) problems.push(run.ignored);
  const sandboxFlag: SettingSource =
    flags.sandbox !== undefined
      ? { kind: 'cli', flag: '--sandbox' }
      : { kind: 'env', variable: 'GEEKAGENT_SANDBOX' };
  const trustedSandbox = sandbox.layers.filter((layer) => layer.scope === 'user' || trusted);
  const described = describeSandboxSettings(trustedSandbox, { mode: run.mode, source: sandboxFlag });
  settings.push(...described.settings);
  problems.push(
    ...described.ignored.map((what) => `the project's sandbox settings ask for ${what}: ignored`),
  );

  const hooks = await readSection(files, hookSettingsSection, places, trusted ? undefined : ['user']);
  problems.push(...hooks.problems);
  settings.push(...flattenSection(hookSettingsSection, hooks));

  const named = await loadNamedModels(userDir, files);
  if (named.problem) problems.push(named.problem);
  for (const [name, entry] of named.models) {
    settings.push({
      key: `models.${name}`,
      value: entry,
      source: { kind: 'file', scope: 'user', file: modelsFile(userDir), key: `models.${name}` },
    });
  }

  const model = resolveModelSettingsWithSources(
    folder.settingsEnv,
    flags,
    named.models,
    named.file,
    (variable) => folder.envSettings.source(variable),
  );
  for (const [field, source] of Object.entries(model.sources)) {
    const value = model.settings[field as keyof typeof model.settings];
    settings.push({ key: `model.${field}`, value, source, ...(field === 'apiKey' ? { secret: true } : {}) });
  }

  const servers = await loadMcpServers({ projectDir, homeDir, userDir, env: folder.env, project: trusted });
  for (const entry of servers.entries) {
    const file = entry.kind === 'ok' ? entry.definition.file : entry.file;
    const scope =
      (entry.kind === 'ok' ? entry.definition.source : entry.source) === 'project' ? 'project' : 'user';
    settings.push({
      key: `mcpServers.${entry.name}`,
      value: entry.kind === 'ok' ? serverSummary(entry.definition) : `invalid: ${entry.error}`,
      source: { kind: 'file', scope, file, key: `mcpServers.${entry.name}` },
    });
  }

  for (const [variable, value] of Object.entries(folder.settingsEnv)) {
    if (!variable.startsWith('GEEKAGENT_') || value === undefined) continue;
    settings.push({
      key: `env.${variable}`,
      value,
      source: folder.envSettings.source(variable),
      ...(SECRET_VARIABLE.test(variable) ? { secret: true } : {}),
    });
  }
  return { settings, problems };
}

/** A server as listed: its transport and command or address (never its env, headers or query). */
function serverSummary(definition: { transport: string; command?: string; url?: string }): string {
  if (definition.command !== undefined) return `${definition.transport}: ${definition.command}`;
  if (definition.url === undefined) return definition.transport;
  try {
    const url = new URL(definition.url);
    return `${definition.transport}: ${url.origin}${url.pathname}`;
  } catch {
    return definition.transport;
  }
}
