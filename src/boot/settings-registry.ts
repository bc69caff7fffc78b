/**
 * The section registry: every section a run reads from the settings files (each declared by its
 * feature), and the run's effective settings with their sources, for `geekagent config`. Reads
 * through the folder's settings model (each file once) after the run's one trust decision: an
 * untrusted folder's files count only where they tighten, exactly as for the agent.
 */
import { compactionEnvSettings } from '../agent/compaction-settings.js';
import { hookSettingsSection } from '../config/hook-settings.js';
import { resolveModelSettingsWithSources } from '../config/model-settings.js';
import { loadNamedModels, modelsFile } from '../config/named-models.js';
import { describeMcpSettings } from '../mcp/settings-view.js';
import { startGraceEnvSetting } from '../mcp/start-grace.js';
import { permissionSettingsSection } from '../permissions/config.js';
import { describePermissionSettings } from '../permissions/settings-view.js';
import { instructionsEnvSetting } from '../project-instructions/read.js';
import { promptCacheKeyEnvSetting } from '../providers/prompt-cache-key.js';
import {
  describeSandboxSettings,
  runSandboxMode,
  type SandboxMode,
  sandboxSettingsSection,
} from '../sandbox/index.js';
import { flattenSection, type Setting } from '../settings/effective.js';
import { type EnvSetting, readEnvSetting } from '../settings/env-setting.js';
import { readSection, type SettingSource } from '../settings/section.js';
import { agentEnvSettings } from '../subagents/extension.js';
import { toolSearchEnvSetting } from '../tool-search/feature/extension.js';
import type { Folder } from './bootstrap.js';

/**
 * Every `GEEKAGENT_*` variable a feature declares (outside model settings, `model.*`, and the
 * sandbox mode, `sandbox.mode`, which list theirs with their sources already).
 */
export const ENV_SETTINGS: readonly EnvSetting<unknown>[] = [
  compactionEnvSettings.autoPercent,
  compactionEnvSettings.maxHistoryChars,
  toolSearchEnvSetting,
  startGraceEnvSetting,
  promptCacheKeyEnvSetting,
  agentEnvSettings.maxAgents,
  agentEnvSettings.maxDepth,
  agentEnvSettings.timeoutSeconds,
  instructionsEnvSetting,
];

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
    folder.envSettings.env,
    flags,
    named.models,
    named.file,
    (variable) => folder.envSettings.source(variable),
  );
  for (const [field, source] of Object.entries(model.sources)) {
    const value = model.settings[field as keyof typeof model.settings];
    settings.push({ key: `model.${field}`, value, source, ...(field === 'apiKey' ? { secret: true } : {}) });
  }

  const mcp = await describeMcpSettings({
    files,
    dirs: { projectDir, homeDir, userDir },
    env: folder.env,
    trusted,
  });
  problems.push(...mcp.problems);
  settings.push(...mcp.settings);

  const sourceOf = (variable: string) => folder.envSettings.source(variable);
  for (const setting of ENV_SETTINGS) {
    const read = readEnvSetting(setting, folder.envSettings.env, sourceOf);
    settings.push({
      key: setting.key,
      value: read.value,
      source: read.source,
      description: setting.description,
      ...(read.problem !== undefined ? { note: read.problem } : {}),
    });
  }

  // Set variables no section lists (GEEKAGENT_HOME, test knobs): raw, with their source.
  const listed = new Set<string>(ENV_SETTINGS.map((setting) => setting.variable));
  listed.add('GEEKAGENT_SANDBOX');
  for (const setting of settings) if (setting.source.kind === 'env') listed.add(setting.source.variable);
  for (const [variable, value] of Object.entries(folder.envSettings.env)) {
    if (!variable.startsWith('GEEKAGENT_') || value === undefined || listed.has(variable)) continue;
    settings.push({
      key: `env.${variable}`,
      value,
      source: folder.envSettings.source(variable),
      ...(SECRET_VARIABLE.test(variable) ? { secret: true } : {}),
    });
  }
  return { settings, problems };
}
