/**
 * Where a test project's sessions are kept: the user's state folder of the harness's temp home
 * (`GEEKAGENT_HOME` = `<home>/.geekagent`), keyed by the project's real path.
 */
import path from 'node:path';
import { sessionsDir } from '../../src/sessions/files.js';

export function userSessionsDir(project: { dir: string; home: string }): string {
  return sessionsDir(path.join(project.home, '.geekagent'), project.dir);
}
