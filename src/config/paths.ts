/**
 * Where user-level state lives: `~/.geekagent`, or `$GEEKAGENT_HOME` when set (tests and CI point
 * it at a temp folder so they never touch the real one). Read from the real environment only —
 * a project's `.env` cannot move it.
 */
import os from 'node:os';
import path from 'node:path';

export function userStateDir(env: NodeJS.ProcessEnv, homeDir: string = os.homedir()): string {
  const override = env.GEEKAGENT_HOME;
  if (override !== undefined && override.trim() !== '') return path.resolve(override);
  return path.join(homeDir, '.geekagent');
}
