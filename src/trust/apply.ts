/**
 * What an untrusted folder's permission file still does: its `deny` and `ask` rules apply (they
 * only tighten); its `allow` rules (tool and annotation rules) and `fetch.allowHosts` are ignored, and a `root` outside the
 * folder falls back to the folder itself.
 */
import type { AnnotationRules } from '../permissions/annotations.js';
import type { PermissionConfig } from '../permissions/config.js';
import type { Policy } from '../permissions/types.js';
import type { FolderTrust } from './decide.js';
import { isInsideFolder } from './declarations.js';

export function permissionsUnderTrust(
  permissions: PermissionConfig,
  trust: FolderTrust,
  projectDir: string,
): PermissionConfig {
  if (trust.state === 'trusted') return permissions;
  const projectRules: Record<string, Policy> = {};
  for (const [pattern, policy] of Object.entries(permissions.projectRules)) {
    if (policy !== 'allow') projectRules[pattern] = policy;
  }
  const root = isInsideFolder(permissions.root, projectDir) ? permissions.root : projectDir;
  return {
    ...permissions,
    projectRules,
    projectAnnotations: withoutAllows(permissions.projectAnnotations),
    projectFetchAllow: [],
    // Narrowing only, yet a declaration like the rest: ignored until the person trusts the folder.
    projectSandbox: undefined,
    root,
  };
}

/** A repo's annotation rules that allow are ignored like its allow rules; ask and deny stay. */
function withoutAllows(rules: AnnotationRules): AnnotationRules {
  const kept: AnnotationRules = {};
  for (const [pattern, hints] of Object.entries(rules)) {
    const tight = Object.fromEntries(Object.entries(hints).filter(([, policy]) => policy !== 'allow'));
    if (Object.keys(tight).length > 0) kept[pattern] = tight;
  }
  return kept;
}
