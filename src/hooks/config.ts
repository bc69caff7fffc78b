/**
 * Which hooks a run has: the user's `GeekAgent.json` (`$GEEKAGENT_HOME`) always, a project's
 * `.geekagent/GeekAgent.json` only when the folder is trusted (its hooks are trust declarations,
 * declarations.ts). A broken section is a notice, never a failed start.
 */
import path from 'node:path';
import { type HookSetting, readHookSettings } from '../config/hook-settings.js';
import { type ConfiguredHook, configure } from './engine.js';

export interface LoadedHooks {
  hooks: ConfiguredHook[];
  problems: string[];
}

export async function loadHooks(options: {
  userDir: string;
  projectDir: string;
  projectTrusted: boolean;
  /** Hooks of the run's plugins (plugins/load.ts), run as the person's own. */
  pluginHooks?: readonly HookSetting[];
}): Promise<LoadedHooks> {
  const userFile = path.join(options.userDir, 'GeekAgent.json');
  const projectFile = path.join(options.projectDir, '.geekagent', 'GeekAgent.json');
  const user = await readHookSettings(userFile);
  // Started in the user-state folder itself: one file, read once.
  const project =
    options.projectTrusted && projectFile !== userFile ? await readHookSettings(projectFile) : { hooks: [] };
  return {
    hooks: [
      ...configure(user.hooks, 'user'),
      ...configure([...(options.pluginHooks ?? [])], 'user'),
      ...configure(project.hooks, 'project'),
    ],
    problems: [user, project].flatMap((read) => ('problem' in read && read.problem ? [read.problem] : [])),
  };
}
