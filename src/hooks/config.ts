/**
 * Which hooks a run has: the user's `GeekAgent.json` (`$GEEKAGENT_HOME`) always, a project's
 * `.geekagent/GeekAgent.json` only when the folder is trusted (its hooks are trust declarations,
 * declarations.ts). A broken section is a notice, never a failed start.
 */
import { type HookSetting, readHookSettings } from '../config/hook-settings.js';
import { type SettingsFiles, settingsFilePath } from '../settings/files.js';
import { type CodeHook, type ConfiguredHook, configure, configureCode } from './engine.js';

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
  /** The run's settings reads (the files the permission rules came from, read once). */
  files?: SettingsFiles;
}): Promise<LoadedHooks> {
  const userFile = settingsFilePath('GeekAgent.json', 'user', options) as string;
  const projectFile = settingsFilePath('GeekAgent.json', 'project', options) as string;
  const user = await readHookSettings(userFile, options.files);
  // Started in the user-state folder itself: one file, read once.
  const project =
    options.projectTrusted && projectFile !== userFile
      ? await readHookSettings(projectFile, options.files)
      : { hooks: [] };
  return {
    hooks: [
      ...configure(user.hooks, 'user'),
      ...configure([...(options.pluginHooks ?? [])], 'user'),
      ...configure(project.hooks, 'project'),
    ],
    problems: [user, project].flatMap((read) => ('problem' in read && read.problem ? [read.problem] : [])),
  };
}

/** The run's hooks with a library caller's code hooks (run after the configured ones). */
export function withCodeHooks(loaded: LoadedHooks, hooks: readonly CodeHook[] | undefined): LoadedHooks {
  return hooks && hooks.length > 0
    ? { ...loaded, hooks: [...loaded.hooks, ...configureCode(hooks)] }
    : loaded;
}
