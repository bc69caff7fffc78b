/**
 * Draws the TUI with Ink. Kept apart from run-tui so that React and Ink are loaded only through
 * `loadMount`, which loads them as their production builds (see react-production.ts). Renders the
 * start-up front first (the first frame) and loads marked, Markdown's lexer, behind it.
 */
import { render } from 'ink';
import { type Lexer, MarkdownLexer } from './components/Markdown.js';
import { TuiApp } from './components/TuiApp.js';
import type { SessionView } from './front.js';

export interface MountIO {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/** Renders the session (or its start-up front) full screen; the returned function unmounts. */
export function mount(session: SessionView, io: MountIO): () => void {
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
      if (mounted) ink.rerender(tree((text) => marked.lexer(text)));
    },
    () => undefined,
  );
  return () => {
    mounted = false;
    ink.unmount();
  };
}
