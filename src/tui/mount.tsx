/**
 * Draws the TUI with Ink. Kept apart from run-tui so that React and Ink are loaded only through
 * `loadMount`, which loads them as their production builds (see react-production.ts). Renders the
 * start-up front first (the first frame) and loads marked, Markdown's lexer, behind it.
 */
import { render } from 'ink';
import { type Lexer, MarkdownLexer } from './components/Markdown.js';
import { scrollbackText } from './components/Scrollback.js';
import { TuiApp } from './components/TuiApp.js';
import type { SessionView } from './front.js';
import type { Entry } from './types.js';

export interface MountIO {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export interface Mounted {
  unmount(): void;
  /** The transcript as text for the normal screen's scrollback (drawn as on screen, in colour). */
  scrollback(entries: readonly Entry[], cols: number): string;
}

/** Renders the session (or its start-up front) full screen. */
export function mount(session: SessionView, io: MountIO): Mounted {
  let lexer: Lexer | undefined;
  const tree = (lexer: Lexer | undefined) => (
    <MarkdownLexer.Provider value={lexer}>
      <TuiApp session={session} stdout={io.stdout} />
    </MarkdownLexer.Provider>
  );
  const ink = render(tree(undefined), {
    stdin: io.stdin,
    stdout: io.stdout,
    stderr: io.stderr,
    exitOnCtrlC: false,
    // Our own capture turns console output into transcript lines instead of printing it.
    patchConsole: false,
    // Ink's own throttle (30 fps by default) held a keystroke's echo back behind the last stream
    // frame; the session already sends stream updates at most once a frame, so every commit draws.
    maxFps: 0,
  });
  let mounted = true;
  // The first frame has no answer to show: Markdown's parser loads behind it.
  import('marked').then(
    ({ marked }) => {
      lexer = (text) => marked.lexer(text);
      if (mounted) ink.rerender(tree(lexer));
    },
    () => undefined,
  );
  return {
    unmount: () => {
      mounted = false;
      ink.unmount();
    },
    scrollback: (entries, cols) => scrollbackText(entries, { cols, lexer }),
  };
}
