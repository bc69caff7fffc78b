/**
 * Slash commands: one table that every face dispatches through (print mode runs `-p /undo`, the
 * TUI runs what the person types). Features contribute their commands through their extension;
 * a command holds what it works on itself, the context only says how to talk to the person.
 */

export type OutputKind = 'system' | 'error';

/** A list for the person to pick one line of (`/rewind`'s messages). Lines are drawn as given: escape them. */
export interface ChoiceRequest {
  title: string;
  options: readonly string[];
}

export interface CommandContext {
  /** Writes a line (or block) to the transcript / stdout. */
  print(text: string, kind?: OutputKind): void;
  /**
   * A progress line for a long command (`/rag add`): the TUI shows it in place, each call
   * replacing the last; print mode writes it to stderr (redrawn on a terminal, else at most once
   * a second). `final` marks the last one. Absent where a face shows no progress.
   */
  progress?(text: string, final: boolean): void;
  /** Ask the face to end the session (TUI: stop servers, restore the terminal, print `bye`). */
  exit(): void;
  /** The face's command table, so /help can list every command. */
  commands: CommandTable;
  /**
   * Sends text as the user's turn (prompt commands); absent where no turn can run. `typed`: the
   * text is what the person typed after the command (not the command's own text).
   */
  submit?: (text: string, options?: { typed?: boolean }) => Promise<void>;
  /**
   * Asks the person to pick one of a list (↑/↓, Enter); resolves with its index, or undefined
   * when they dismissed it (Esc) or the command was cancelled. Absent where nobody can be asked
   * (print mode).
   */
  choose?(request: ChoiceRequest): Promise<number | undefined>;
  /** Puts text into the input line for the person to edit and send; absent without one. */
  setInput?(text: string): void;
  /**
   * The conversation went back (`/rewind`): the ids of the user messages it dropped, oldest first.
   * A face that shows the transcript drops their turns from it; absent where nothing is shown.
   */
  rewound?(dropped: readonly string[]): void;
  /** Cancels a long command (Esc, Ctrl+C, a signal). */
  signal: AbortSignal;
}

export interface SlashCommand {
  name: string;
  /** `/mcp [tools|reconnect|logs] <server>` */
  usage: string;
  description: string;
  /** Non-interactive faces wait until the extensions are ready (MCP servers up within the start-up grace) first. */
  needsReady?: boolean;
  /** Refused while a turn runs (it would race the turn's own changes). */
  idleOnly?: boolean;
  run(args: string[], ctx: CommandContext): Promise<void>;
}

export class CommandTable {
  private readonly commands = new Map<string, SlashCommand>();

  register(command: SlashCommand): void {
    if (this.commands.has(command.name)) throw new Error(`command already registered: /${command.name}`);
    this.commands.set(command.name, command);
  }

  unregister(name: string): void {
    this.commands.delete(name);
  }

  get(name: string): SlashCommand | undefined {
    return this.commands.get(name);
  }

  /** The command an input line names, if it is known. */
  lookup(input: string): SlashCommand | undefined {
    return this.commands.get(input.trim().split(/\s+/, 1)[0]?.slice(1) ?? '');
  }

  list(): SlashCommand[] {
    return [...this.commands.values()];
  }

  /**
   * True when `input` is a command line (`/name …`), whether or not the name is known. A first
   * word with a second `/` is a path (a pasted `/tmp/shot.png`), not a command.
   */
  static isCommand(input: string): boolean {
    return /^\/[^\s/]+(\s|$)/.test(input.trim());
  }

  async dispatch(input: string, ctx: CommandContext): Promise<void> {
    const [head = '', ...args] = input.trim().split(/\s+/);
    const name = head.slice(1);
    const command = this.commands.get(name);
    if (!command) {
      ctx.print(`unknown command: /${name} (type /help for the list)`, 'error');
      return;
    }
    await command.run(args, ctx);
  }
}
