/**
 * `GEEKAGENT_*` variables as the features declare them (settings/env-setting.ts): each listed by
 * `geekagent config` under its feature's key with its source (`env GEEKAGENT_…` or default), an
 * unusable value as a note naming the variable (the run keeps its own behaviour: compaction stops,
 * tool search says so and uses auto), and a set variable no section declares listed raw.
 */
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compactionEnvSettings, resolveCompactionSettings } from '../../../src/agent/compaction-settings.js';
import { openFolder } from '../../../src/boot/bootstrap.js';
import { ENV_SETTINGS, effectiveSettings } from '../../../src/boot/settings-registry.js';
import { readEnvSetting } from '../../../src/settings/env-setting.js';
import { agentLimits } from '../../../src/subagents/extension.js';
import { toolSearchMode } from '../../../src/tool-search/feature/extension.js';
import { trustedForRun } from '../../../src/trust/decide.js';

describe('declared GEEKAGENT_* variables', () => {
  let base: string;
  let projectDir: string;
  let homeDir: string;
  let userDir: string;

  beforeEach(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-env-settings-')));
    projectDir = path.join(base, 'project');
    homeDir = path.join(base, 'home');
    userDir = path.join(homeDir, '.geekagent');
    await mkdir(projectDir, { recursive: true });
    await mkdir(userDir, { recursive: true });
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const settingsFor = async (variables: NodeJS.ProcessEnv) => {
    const env = { GEEKAGENT_HOME: userDir, ...variables };
    const folder = await openFolder({ cwd: projectDir, homeDir, env, trust: trustedForRun(projectDir) });
    return (await effectiveSettings(folder, {})).settings;
  };

  it('lists each under its key: the default, or the value with the variable it came from', async () => {
    const settings = await settingsFor({ GEEKAGENT_AUTO_COMPACT: '70', GEEKAGENT_MAX_AGENTS: '2' });
    const byKey = new Map(settings.map((setting) => [setting.key, setting]));
    expect(byKey.get('compaction.autoPercent')).toMatchObject({
      value: 70,
      source: { kind: 'env', variable: 'GEEKAGENT_AUTO_COMPACT' },
    });
    expect(byKey.get('subagents.maxAgents')).toMatchObject({ value: 2 });
    expect(byKey.get('toolSearch.mode')).toMatchObject({ value: 'auto', source: { kind: 'default' } });
    expect(byKey.get('mcp.startGraceMs')).toMatchObject({ value: 1000, source: { kind: 'default' } });
    expect(byKey.get('compaction.maxHistoryChars')?.value).toBeUndefined();
    // Every declared one is listed, each with its one line; none of them again as raw env.*.
    for (const setting of ENV_SETTINGS) expect(byKey.get(setting.key)?.description).toBe(setting.description);
    expect(settings.some((setting) => setting.key === 'env.GEEKAGENT_AUTO_COMPACT')).toBe(false);
    // A variable no section declares: raw.
    expect(byKey.get('env.GEEKAGENT_HOME')).toMatchObject({ value: userDir });
  });

  it('says why an unusable value is not used, naming the variable; the run behaves as before', async () => {
    const settings = await settingsFor({ GEEKAGENT_TOOL_SEARCH: 'sometimes', GEEKAGENT_MAX_AGENTS: 'many' });
    const byKey = new Map(settings.map((setting) => [setting.key, setting]));
    expect(byKey.get('toolSearch.mode')).toMatchObject({
      value: 'auto',
      note: 'GEEKAGENT_TOOL_SEARCH=sometimes is not auto, on or off: using auto',
    });
    expect(byKey.get('subagents.maxAgents')?.note).toMatch(/^GEEKAGENT_MAX_AGENTS=many .*using 4$/);
    expect(toolSearchMode({ GEEKAGENT_TOOL_SEARCH: 'sometimes' }).problem).toBe(
      'GEEKAGENT_TOOL_SEARCH=sometimes is not auto, on or off: using auto',
    );
    expect(agentLimits({ GEEKAGENT_MAX_AGENTS: 'many' }).maxAgents).toBe(4);
    expect(() => resolveCompactionSettings({ GEEKAGENT_AUTO_COMPACT: '101' })).toThrow(
      'GEEKAGENT_AUTO_COMPACT must be a whole number from 0 to 100, got "101"',
    );
  });

  it('takes a blank variable as unset', () => {
    expect(readEnvSetting(compactionEnvSettings.autoPercent, { GEEKAGENT_AUTO_COMPACT: '  ' })).toEqual({
      value: 80,
      source: { kind: 'default' },
    });
  });
});
