/**
 * `geekagent mcp serve [--root <dir>]`: GeekAgent's built-in tools served over stdio to another MCP
 * client. `--allow`/`--deny`/`--allow-protected`/`--trust` are the top-level flags (commander gives
 * them to the program wherever they stand). The server itself is loaded only when this runs, so
 * the other `mcp` commands do not pay for it; Ink is never loaded.
 */
import os from 'node:os';
import path from 'node:path';
import { Command, Help } from 'commander';
import { errorMessage } from '../util/errors.js';
import { visible } from '../util/terminal-text.js';
import type { ChatOptions, CliIO } from './types.js';

export type ServeRootOptions = Pick<
  ChatOptions,
  'cwd' | 'trust' | 'allow' | 'deny' | 'allowProtected' | 'sandbox'
>;

/** The top-level flags `mcp serve` reads (ServeRootOptions), shown in its help. */
const SERVE_FLAGS: ReadonlySet<string> = new Set<keyof ServeRootOptions>([
  'cwd',
  'trust',
  'allow',
  'deny',
  'allowProtected',
  'sandbox',
]);

export function mcpServeCommand(
  io: CliIO,
  setExitCode: (code: number) => void,
  rootOptions: () => Partial<ServeRootOptions>,
): Command {
  return (
    new Command('serve')
      .description(
        "serve GeekAgent's built-in tools (files, search, shell, fetch, memory, knowledge base) as an MCP server over stdio",
      )
      .option(
        '--root <dir>',
        'the project folder to serve (its config, trust and root apply; default: --cwd or the current folder)',
      )
      // The top-level flags it takes are listed with it (commander's "Global Options", only those).
      .configureHelp({
        showGlobalOptions: true,
        visibleGlobalOptions(this: Help, command: Command) {
          return Help.prototype.visibleGlobalOptions
            .call(this, command)
            .filter((option) => SERVE_FLAGS.has(option.attributeName()));
        },
      })
      .addHelpText(
        'after',
        '\nPermissions are the agent\'s: "ask" tools are asked through the client\'s elicitation when it supports it,\n' +
          'else refused; --allow <tool> lets them run, --deny <tool> hides them, --allow-protected <path> as in the agent.\n' +
          'Example: geekagent mcp serve --allow write --root ~/src/app',
      )
      .action(async (options: { root?: string }) => {
        setExitCode(await runServe(io, options.root, rootOptions()));
      })
  );
}

async function runServe(
  io: CliIO,
  root: string | undefined,
  flags: Partial<ServeRootOptions>,
): Promise<number> {
  const log = (line: string): void => {
    io.stderr.write(`geekagent mcp serve: ${visible(line)}\n`);
  };
  try {
    const [{ serve }, { decideFolderTrust }, { PACKAGE_VERSION }, { withProcessScope }] = await Promise.all([
      import('../serve/server.js'),
      import('../boot/folder-trust.js'),
      import('../config/version.js'),
      import('./process-scope.js'),
    ]);
    const projectDir = path.resolve(root ?? flags.cwd ?? process.cwd());
    const homeDir = os.homedir();
    // Nobody to ask on a protocol stream: an untrusted folder's allow rules, fetch hosts and outside
    // root are ignored (its deny and ask rules still apply), and stderr says so.
    const trust = await decideFolderTrust({
      projectDir,
      env: io.env,
      homeDir,
      flag: flags.trust === true,
      notice: (text) => io.stderr.write(`${text}\n`),
    });
    return await withProcessScope(io.stderr, async (scope) => {
      const stop = new AbortController();
      scope.onShutdown(async () => {
        stop.abort();
      });
      await serve({
        projectDir,
        homeDir,
        env: io.env,
        trust,
        allow: flags.allow ?? [],
        deny: flags.deny ?? [],
        allowProtected: flags.allowProtected ?? [],
        ...(flags.sandbox ? { sandboxMode: flags.sandbox } : {}),
        stdin: io.stdin,
        stdout: io.stdout,
        log,
        version: PACKAGE_VERSION,
        signal: stop.signal,
      });
      return 0;
    });
  } catch (error) {
    log(errorMessage(error));
    return 1;
  }
}
