/** Where the desktop applications keep their per-user settings on each platform. */
import path from 'node:path';
import type { DialectContext } from './types.js';

/** `~/.config/<app>` (or `$XDG_CONFIG_HOME`), `~/Library/Application Support/<app>`, `%APPDATA%\<app>`. */
export function appConfigDir(context: DialectContext, app: string): string {
  if (context.platform === 'darwin') return path.join(context.homeDir, 'Library', 'Application Support', app);
  if (context.platform === 'win32')
    return path.join(context.env.APPDATA ?? path.join(context.homeDir, 'AppData', 'Roaming'), app);
  const xdg = context.env.XDG_CONFIG_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(context.homeDir, '.config'), app);
}
