/**
 * Folder trust's share of lifecycle hooks: each command hook of the project's GeekAgent.json runs
 * a command the agent starts, so each is one item.
 */
import { readHookSettings } from '../config/hook-settings.js';
import { projectSettingsFile, type SettingsFiles } from '../settings/files.js';
import { canonicalJson, type Declaration, type TrustContributor } from '../trust/declarations.js';

export const hookTrust: TrustContributor = {
  name: 'hooks',
  kinds: ['hook'],
  read: ({ projectDir, files }) => hookDeclarations(projectSettingsFile('GeekAgent.json', projectDir), files),
  was: (_item, before) => hookWasText(before),
};

/**
 * Each command hook of the project's GeekAgent.json, valued by its event, matcher, command and
 * timeout: a new or changed hook is asked again. A broken section declares nothing (nothing of it runs).
 */
export async function hookDeclarations(file: string, files?: SettingsFiles): Promise<Declaration[]> {
  const { hooks } = await readHookSettings(file, files);
  const seen = new Map<string, number>();
  return hooks.map((hook) => {
    const n = seen.get(hook.event) ?? 0;
    seen.set(hook.event, n + 1);
    const name = `${hook.event} ${hook.matcher === '' ? '*' : hook.matcher}`;
    return {
      key: `hook:${hook.event}:${n}`,
      kind: 'hook' as const,
      name,
      file,
      value: canonicalJson({ event: hook.event, ...(hook.raw as object) }),
      text: hookText(name, hook.command),
    };
  });
}

export function hookText(name: string, command: string): string {
  return `hook ${name}: runs ${command}`;
}

/** A hook as it was recorded: its event, matcher and command. */
function hookWasText(before: string): string {
  try {
    const was = JSON.parse(before) as { event?: unknown; matcher?: unknown; command?: unknown };
    const matcher = typeof was.matcher === 'string' && was.matcher !== '' ? was.matcher : '*';
    return hookText(`${String(was.event)} ${matcher}`, String(was.command));
  } catch {
    return before;
  }
}
