/**
 * `geekagent config [get <key>] [--json]`: the run's effective settings, each with its value and
 * where it came from (a file and its scope, a variable, `.env`, a flag, or the default). Goes
 * through the bootstrap like a run: the one trust decision (an untrusted folder's files count only
 * where they tighten, and stderr says so), then the settings model. Secrets are never printed,
 * only where they are set; every line is escaped (project files are text from anyone).
 */
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import type { EffectiveSettingsFlags } from '../boot/settings-registry.js';
import type { Setting } from '../settings/effective.js';
import { errorMessage } from '../util/errors.js';
import { ConfigError } from '../util/json-file.js';
import { visibleLine } from '../util/terminal-text.js';
import type { ChatOptions, CliIO } from './types.js';

export function configCommand(
  io: CliIO,
  setExitCode: (code: number) => void,
  rootOptions: () => ChatOptions,
): Command {
  const config = new Command('config')
    .description(
      'show every effective setting with its value and where it came from (user, project and project-local files, environment, .env, flags)',
    )
    .option('--json', 'one JSON document instead of text')
    .action(async (options: { json?: boolean }) => {
      setExitCode(await guarded(io, () => show(io, rootOptions(), undefined, options.json === true)));
    });
  config
    .command('get')
    .description('one setting (or every setting under a key, e.g. sandbox) and where it came from')
    .argument('<key>', 'a key as `geekagent config` lists it: model.model, sandbox.mode, tools.run_shell, …')
    .option('--json', 'one JSON document instead of text')
    .action(async (key: string, options: { json?: boolean }) => {
      const json = options.json === true || config.opts<{ json?: boolean }>().json === true;
      setExitCode(await guarded(io, () => show(io, rootOptions(), key, json)));
    });
  return config;
}

async function guarded(io: CliIO, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    io.stderr.write(
      `${visibleLine(error instanceof ConfigError ? error.message : `geekagent config: ${errorMessage(error)}`)}\n`,
    );
    return 1;
  }
}

async function show(io: CliIO, root: ChatOptions, key: string | undefined, json: boolean): Promise<number> {
  const [{ decideFolderTrust }, { openFolder }, { effectiveSettings }, { describeSource, describeValue }] =
    await Promise.all([
      import('../boot/folder-trust.js'),
      import('../boot/bootstrap.js'),
      import('../boot/settings-registry.js'),
      import('../settings/effective.js'),
    ]);
  const cwd = path.resolve(root.cwd ?? process.cwd());
  const homeDir = os.homedir();
  const trust = await decideFolderTrust({
    projectDir: cwd,
    env: io.env,
    homeDir,
    flag: root.trust === true,
    notice: (text) => io.stderr.write(`${visibleLine(text)}\n`),
  });
  const folder = await openFolder({ cwd, homeDir, env: io.env, trust });
  const flags: EffectiveSettingsFlags = {
    ...(root.model !== undefined ? { model: root.model } : {}),
    ...(root.baseUrl !== undefined ? { baseURL: root.baseUrl } : {}),
    ...(root.provider !== undefined ? { provider: root.provider } : {}),
    ...(root.sandbox !== undefined ? { sandbox: root.sandbox } : {}),
  };
  const { settings, problems } = await effectiveSettings(folder, flags);
  for (const problem of problems) io.stderr.write(`geekagent: ${visibleLine(problem)}\n`);
  const chosen =
    key === undefined ? settings : settings.filter((s) => s.key === key || s.key.startsWith(`${key}.`));
  if (key !== undefined && chosen.length === 0) {
    io.stderr.write(`geekagent config: no setting named ${visibleLine(key)} (see geekagent config)\n`);
    return 1;
  }
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ trusted: folder.trusted, settings: chosen.map(asJson) }, null, 2)}\n`,
    );
    return 0;
  }
  for (const setting of chosen) {
    const note = setting.note ? ` — ${setting.note}` : '';
    io.stdout.write(
      `${visibleLine(`${setting.key} = ${describeValue(setting)}  [${describeSource(setting.source)}]${note}`)}\n`,
    );
  }
  return 0;
}

/** A secret's value never leaves: `{"set": true}` and its source. */
function asJson(setting: Setting): Record<string, unknown> {
  const { secret, value, ...rest } = setting;
  return secret ? { ...rest, secret: true, set: value !== undefined } : { ...rest, value: value ?? null };
}
