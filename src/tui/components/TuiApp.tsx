/** The root component: follows the session's snapshot and the terminal's size, renders the Screen. */
import { useSyncExternalStore } from 'react';
import type { SessionView } from '../front.js';
import { useTerminalSize } from '../hooks.js';
import { Screen } from './Screen.js';

export function TuiApp({ session, stdout }: { session: SessionView; stdout: NodeJS.WriteStream }) {
  const snapshot = useSyncExternalStore(session.subscribe, session.snapshot);
  const { cols, rows } = useTerminalSize(stdout);
  return <Screen snapshot={snapshot} target={session} cols={cols} rows={rows} />;
}
