/**
 * The permission section as `geekagent config` lists it: each tool and annotation rule with the
 * file it comes from, the fetch hosts, the root and the approval mode — after the folder's trust
 * (untrusted: the project files' `ask`/`deny` rules only, as trust/apply.ts does for the run) and
 * project-local narrowing (permissions/config.ts).
 */
import type { Setting } from '../settings/effective.js';
import type { SectionLayer, SettingSource } from '../settings/section.js';
import type * as z from '../util/schema.js';
import { POLICY_STRICTNESS } from './annotations.js';
import type { permissionFileSchema } from './config.js';
import type { Policy } from './types.js';

type PermissionFile = z.infer<ReturnType<typeof permissionFileSchema>>;

export function describePermissionSettings(
  layers: readonly SectionLayer<PermissionFile>[],
  trusted: boolean,
): Setting[] {
  const settings: Setting[] = [];
  const from = (layer: SectionLayer<PermissionFile>, key: string): SettingSource => ({
    kind: 'file',
    scope: layer.scope,
    file: layer.file,
    key,
  });
  // A project file's allows need the folder's trust; project-local never allows (it only narrows).
  const mayAllow = (layer: SectionLayer<PermissionFile>) =>
    layer.scope === 'user' || (layer.scope === 'project' && trusted);
  const rules = new Map<string, Setting>();
  const offer = (key: string, policy: Policy, layer: SectionLayer<PermissionFile>) => {
    if (policy === 'allow' && !mayAllow(layer)) return;
    const current = rules.get(key);
    // A deny anywhere wins; otherwise the higher scope's rule (layers come lowest first).
    if (current && current.value === 'deny' && policy !== 'deny') return;
    if (
      current &&
      layer.scope === 'project-local' &&
      POLICY_STRICTNESS[policy] < POLICY_STRICTNESS[current.value as Policy]
    )
      return;
    rules.set(key, { key, value: policy, source: from(layer, key) });
  };
  for (const layer of layers) {
    for (const [pattern, policy] of Object.entries(layer.value.tools ?? {})) {
      offer(`tools.${pattern}`, policy, layer);
    }
    for (const [pattern, hints] of Object.entries(layer.value.annotations ?? {})) {
      for (const [hint, policy] of Object.entries(hints)) {
        if (policy) offer(`annotations.${pattern}.${hint}`, policy, layer);
      }
    }
  }
  settings.push(...rules.values());
  for (const layer of layers.filter(mayAllow)) {
    const hosts = layer.value.fetch?.allowHosts;
    if (hosts?.length)
      settings.push({ key: 'fetch.allowHosts', value: hosts, source: from(layer, 'fetch.allowHosts') });
  }
  const project = layers.find((layer) => layer.scope === 'project');
  if (project?.value.root !== undefined) {
    settings.push({
      key: 'root',
      value: project.value.root,
      source: from(project, 'root'),
      ...(trusted ? {} : { note: 'used only inside the folder until it is trusted' }),
    });
  }
  // The user's approval mode is the run's default; a project's is never used.
  const user = layers.find((layer) => layer.scope === 'user');
  if (user?.value.approvalMode !== undefined) {
    settings.push({
      key: 'approvalMode',
      value: user.value.approvalMode,
      source: from(user, 'approvalMode'),
    });
  }
  return settings;
}
