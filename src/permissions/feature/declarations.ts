/**
 * Folder trust's share of the permission feature: what a project's `.geekagent/GeekAgent.json`
 * opens — its `allow` tool rules (beyond the built-in defaults), annotation rules that allow,
 * `fetch.allowHosts` (private addresses `fetch` may reach) and a `root` outside the folder. Read
 * raw with the permission file's schema; a broken file declares nothing (nothing of it is used).
 */
import path from 'node:path';
import { projectSettingsFile, readOnce, type SettingsFiles } from '../../settings/files.js';
import { type Declaration, isInsideFolder, type TrustContributor } from '../../trust/declarations.js';
import { permissionFileSchema } from '../config.js';
import { BUILTIN_POLICIES } from '../defaults.js';

export const permissionTrust: TrustContributor = {
  name: 'permissions',
  kinds: ['allow', 'annotationAllow', 'fetchHost', 'root'],
  read: ({ projectDir, folder, files }) =>
    permissionDeclarations(projectSettingsFile('GeekAgent.json', projectDir), folder, files),
  was: (item, before) => {
    switch (item.kind) {
      case 'allow':
        return allowText(item.name);
      case 'annotationAllow':
        return annotationAllowText(item.name);
      case 'fetchHost':
        return fetchHostText(item.name);
      default:
        return `root ${before}`;
    }
  },
};

/** An `allow` rule the person added ("always" answer): recorded so the folder stays trusted. */
export function allowDeclaration(file: string, pattern: string): Declaration {
  return {
    key: `allow:${pattern}`,
    kind: 'allow',
    name: pattern,
    file,
    value: 'allow',
    text: allowText(pattern),
  };
}

export function allowText(pattern: string): string {
  return `tool rule "${pattern}": "allow"`;
}

export function annotationAllowText(name: string): string {
  return `annotation rule ${name}: "allow" (the server's claim)`;
}

/** `readOnlyHint "mcp_gh_*"` → the declaration of an annotation rule that allows. */
function annotationAllowDeclaration(file: string, pattern: string, hint: string): Declaration {
  const name = `${hint} "${pattern}"`;
  return {
    key: `annotation:${hint}:${pattern}`,
    kind: 'annotationAllow',
    name,
    file,
    value: 'allow',
    text: annotationAllowText(name),
  };
}

export function fetchHostText(host: string): string {
  return `fetch may reach "${host}" (fetch.allowHosts)`;
}

function fetchHostDeclaration(file: string, host: string): Declaration {
  return {
    key: `fetch:${host}`,
    kind: 'fetchHost',
    name: host,
    file,
    value: 'allow',
    text: fetchHostText(host),
  };
}

export async function permissionDeclarations(
  file: string,
  folder: string,
  files?: SettingsFiles,
): Promise<Declaration[]> {
  const read = await readOnce(files, file);
  if (read.kind === 'missing') return [];
  const parsed = permissionFileSchema().safeParse(read.value);
  // A broken file is reported by the permission loader at start-up; nothing of it is used.
  if (!parsed.success) return [];
  const items: Declaration[] = [];
  for (const [pattern, policy] of Object.entries(parsed.data.tools ?? {})) {
    // A rule that only repeats a built-in default allows nothing new.
    if (policy !== 'allow' || BUILTIN_POLICIES[pattern] === 'allow') continue;
    items.push(allowDeclaration(file, pattern));
  }
  for (const [pattern, hints] of Object.entries(parsed.data.annotations ?? {})) {
    for (const [hint, policy] of Object.entries(hints)) {
      if (policy === 'allow') items.push(annotationAllowDeclaration(file, pattern, hint));
    }
  }
  // Private addresses `fetch` may reach: a repo must not open the way to the person's network.
  for (const host of parsed.data.fetch?.allowHosts ?? []) items.push(fetchHostDeclaration(file, host));
  const root = parsed.data.root;
  if (root !== undefined) {
    const resolved = path.resolve(path.dirname(file), root);
    if (!isInsideFolder(resolved, folder)) {
      items.push({
        key: 'root',
        kind: 'root',
        name: 'root',
        file,
        value: resolved,
        text: `root "${root}" (${resolved}), outside the project folder`,
      });
    }
  }
  return items;
}
