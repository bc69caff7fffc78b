/**
 * `geekagent trust [dir]`: for scripts and CI, records a folder as trusted after printing what it
 * declares (the same list the interactive question shows); `--revoke` forgets it.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import { TRUST_CONTRIBUTORS } from '../boot/trust-contributors.js';
import { trustFolder } from '../trust/decide.js';
import { readDeclarations } from '../trust/declarations.js';
import { trustListLines } from '../trust/describe.js';
import { TrustStore } from '../trust/store.js';
import { errorMessage } from '../util/errors.js';
import { ConfigError } from '../util/json-file.js';
import { visibleLine } from '../util/terminal-text.js';
import type { CliIO } from './types.js';

export function trustCommand(
  io: CliIO,
  setExitCode: (code: number) => void,
  cwd: () => string | undefined,
): Command {
  return new Command('trust')
    .description(
      'trust a folder (default: the current one): print what it declares and let it take effect from now on — ' +
        'its MCP servers (.geekagent/mcp.json), allow rules, fetch hosts, a root outside it and hooks (.geekagent/GeekAgent.json), ' +
        'custom commands (.geekagent/commands, .claude/commands), skills (.geekagent/skills, .claude/skills, …) and agents (.geekagent/agents), ' +
        'project memory (.geekagent/memory.json) ' +
        'and .env model settings',
    )
    .argument('[dir]', 'the project folder (default: --cwd or the current folder)')
    .option('--revoke', 'forget the folder: its declarations are ignored again until you trust it')
    .action(async (dir: string | undefined, options: { revoke?: boolean }) => {
      try {
        setExitCode(await trust(io, path.resolve(dir ?? cwd() ?? process.cwd()), options.revoke === true));
      } catch (error) {
        io.stderr.write(
          `${error instanceof ConfigError ? error.message : `geekagent trust: ${errorMessage(error)}`}\n`,
        );
        setExitCode(1);
      }
    });
}

async function trust(io: CliIO, dir: string, revoke: boolean): Promise<number> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    io.stderr.write(`geekagent trust: ${visibleLine(dir)} is not a folder\n`);
    return 1;
  }
  const store = TrustStore.forUser(io.env, undefined, TRUST_CONTRIBUTORS);
  const declarations = await readDeclarations(dir, TRUST_CONTRIBUTORS);
  const folder = visibleLine(declarations.folder);
  if (revoke) {
    const removed = await store.revoke(declarations.folder);
    io.stdout.write(removed ? `No longer trusted: ${folder}\n` : `${folder} was not trusted\n`);
    return 0;
  }
  const already = (await store.check(declarations)).state === 'trusted';
  io.stdout.write(`${already ? 'Still trusting' : 'Trusting'} ${folder}; it declares:\n`);
  io.stdout.write(`${trustListLines(declarations).join('\n')}\n`);
  await trustFolder(declarations, { env: io.env });
  io.stdout.write(`Recorded in ${visibleLine(store.file)}\n`);
  return 0;
}
