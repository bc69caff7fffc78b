/**
 * The command line: flags and subcommands, parsed with commander, dispatched to the faces.
 * Holds no agent logic — it reads options and calls print mode, the TUI or the `mcp` commands.
 * Each face and the `mcp` commands are imported when chosen, so a run loads only what it uses
 * (print mode never loads the `mcp` commands, `geekagent mcp …` never loads the agent or Ink).
 */
import { Command, Option } from 'commander';
import { PACKAGE_VERSION } from '../config/version.js';
import { acpCommand } from './acp-command.js';
import { configCommand } from './config-command.js';
import { MIN_NODE } from './launch/node-check.js';
import { pluginCommand } from './plugin-command.js';
import { sandboxCommand } from './sandbox-command.js';
import { trustCommand } from './trust-command.js';
import type { ChatOptions, CliIO } from './types.js';

export type { ChatOptions, CliIO } from './types.js';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  let exitCode = 0;
  const program = new Command('geekagent')
    .description('A terminal AI agent with a first-class MCP client')
    .version(`${PACKAGE_VERSION} (needs Node.js >=${MIN_NODE})`, '-v, --version')
    .option('-p, --print [prompt]', 'run one turn non-interactively and exit (prompt from stdin if omitted)')
    .addOption(
      new Option(
        '--output-format <format>',
        'print mode output (stream-json: one JSON object a line, as it happens)',
      )
        .choices(['text', 'json', 'stream-json'])
        .default('text'),
    )
    .addOption(
      new Option(
        '--input-format <format>',
        'print mode input (stream-json: user messages and approval answers as JSON lines on stdin; needs --output-format stream-json)',
      )
        .choices(['text', 'stream-json'])
        .default('text'),
    )
    .option(
      '--include-partial-messages',
      "stream-json: also each model reply's stream events (message_start, content blocks and their deltas, message_stop) as they arrive",
    )
    .option('--verbose', 'accepted for Claude Code compatibility: stream-json output is always complete')
    .option('--allow <pattern>', 'allow a tool (or pattern such as mcp_demo_*) for this run', collect, [])
    .option('--deny <pattern>', 'deny a tool (or pattern) for this run', collect, [])
    .option(
      '--allow-protected <path>',
      'let write/patch/run_shell touch this protected path (.geekagent/…, .env, ~/.geekagent) without the forced question',
      collect,
      [],
    )
    .option('--cwd <dir>', 'project folder to work in (default: the current folder)')
    .option(
      '--trust',
      'trust the folder for this run only: use its MCP servers, allow rules, root and .env (see geekagent trust)',
    )
    .option(
      '--accept-elicitation-defaults',
      "print mode: accept MCP servers' input forms with their defaults (else declined)",
    )
    .option('-c, --continue', 'continue the latest session of this folder (print mode too)')
    .option('--resume <id>', 'continue the session with this id (print mode too)')
    .option('--skill <name>', 'activate a skill for this run (repeatable; see /skills)', collect, [])
    .option(
      '--image <file>',
      'attach an image (png, jpeg, gif, webp) to the first message, for a model that takes images (repeatable)',
      collect,
      [],
    )
    .option(
      '--mcp-config <file-or-json>',
      'MCP servers for this run only: a JSON file or inline JSON {"mcpServers": {...}} (repeatable; no folder trust needed)',
      collect,
      [],
    )
    .option(
      '--strict-mcp-config',
      'use only the --mcp-config servers, not .geekagent/mcp.json or ~/.geekagent/mcp.json',
    )
    .option(
      '--provider <name>',
      'model API: openai (Chat Completions), anthropic, openai-responses, gemini (overrides GEEKAGENT_PROVIDER)',
    )
    .addOption(
      new Option(
        '--sandbox <mode>',
        'confine run_shell commands for this run: workspace-write (writes only in the project), read-only, off',
      ).choices(['workspace-write', 'read-only', 'off']),
    )
    .addOption(
      new Option(
        '--approval-mode <mode>',
        'default (ask), accept-edits (write/patch unasked), plan (read-only tools, then a plan), bypass (no questions but deny rules and protected paths; trusted folders only)',
      ).choices(['default', 'accept-edits', 'plan', 'bypass']),
    )
    .option(
      '--model <name>',
      "model: a name from ~/.geekagent/models.json (see /model), else the provider's model id (overrides the *_MODEL variable)",
    )
    .option('--base-url <url>', "the provider's base URL (overrides OPENAI_BASE_URL, ANTHROPIC_BASE_URL, …)")
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // `geekagent fix the bug`: the prompt is one argument.
      outputError: (text, write) =>
        write(
          text.includes('too many arguments') && !text.includes("for '")
            ? `${text.trimEnd()}\nquote a prompt of several words: geekagent "fix the bug"\n`
            : text,
        ),
    })
    .argument(
      '[prompt]',
      'a first message: the interactive session opens with it sent (with -p: print mode answers it and exits)',
    )
    // The action handler would hide commander's `help` command: `geekagent help mcp` works.
    .helpCommand('help [command]', 'show help for a command (geekagent help mcp)')
    .exitOverride()
    .action(async (prompt: string | undefined, options: ChatOptions) => {
      if (prompt !== undefined && typeof options.print === 'string') {
        io.stderr.write(
          `two prompts: -p "${options.print}" and "${prompt}"; give one (geekagent -p "<prompt>", or geekagent "<prompt>" for the interactive session)\n`,
        );
        exitCode = 1;
        return;
      }
      const { runChat } = await import('./chat-face.js');
      exitCode = await runChat(prompt === undefined ? options : { ...options, prompt }, io);
    });
  // `mcp` is listed (for --help) but filled with its subcommands only once commander picks it.
  const mcp = new Command('mcp').description('configure and inspect MCP servers');
  program.addCommand(mcp);
  const loadMcp = async () => {
    if (mcp.commands.length > 0) return;
    const { mcpCommand } = await import('./mcp-command.js');
    const loaded = mcpCommand(
      io,
      (code) => {
        exitCode = code;
      },
      () => program.opts<ChatOptions>(),
    );
    mcp.description(loaded.description());
    for (const option of loaded.options) mcp.addOption(option);
    for (const command of loaded.commands) mcp.addCommand(command);
  };
  program.hook('preSubcommand', async (_program, chosen) => {
    if (chosen === mcp) await loadMcp();
  });
  program.addCommand(
    acpCommand(io, (code) => {
      exitCode = code;
    }),
  );
  program.addCommand(
    sandboxCommand(io, (code) => {
      exitCode = code;
    }),
  );
  program.addCommand(
    pluginCommand(
      io,
      (code) => {
        exitCode = code;
      },
      () => program.opts<ChatOptions>().cwd,
    ),
  );
  program.addCommand(
    trustCommand(
      io,
      (code) => {
        exitCode = code;
      },
      () => program.opts<ChatOptions>().cwd,
    ),
  );

  program.addCommand(
    configCommand(
      io,
      (code) => {
        exitCode = code;
      },
      () => program.opts<ChatOptions>(),
    ),
  );

  // Commander's `help mcp` prints the command's help without the preSubcommand hook.
  const rest = argv.slice(2);
  const helpAt = rest.indexOf('help');
  if (helpAt >= 0 && rest[helpAt + 1] === 'mcp') await loadMcp();

  try {
    await program.parseAsync(argv);
  } catch (error) {
    const code = (error as { exitCode?: number }).exitCode;
    return typeof code === 'number' ? code : 1;
  }
  return exitCode;
}
