/**
 * The policy layers of one run, strongest first: the command line's `--allow`/`--deny`, then the
 * person's "always" answers for this folder (`local`, kept in their own state), then the project
 * file, then the user file. Shared by the agent and `geekagent mcp serve`, so both read the
 * same files the same way.
 */

import type { AnnotationRules } from './annotations.js';
import type { PermissionConfig } from './config.js';
import type { Policy } from './types.js';

export interface PolicyLayer {
  /** 'cli' | 'local' | 'project' | 'user' ... — shown by explain() so a person can find the rule. */
  label: string;
  rules: Record<string, Policy>;
  /** Policies by MCP annotation (annotations.ts): below the layer's tool rules. */
  annotations?: AnnotationRules;
}

/** The layer of the person's own answers: where an "always" adds its rule (PolicyStore.allowAlways). */
export const LOCAL_LAYER = 'local';

export function policyLayers(
  permissions: PermissionConfig,
  flags: { allow?: readonly string[]; deny?: readonly string[] },
): PolicyLayer[] {
  const cli: Record<string, Policy> = {};
  for (const pattern of flags.allow ?? []) cli[pattern] = 'allow';
  // A pattern given to both flags is denied: refusing is the safe reading.
  for (const pattern of flags.deny ?? []) cli[pattern] = 'deny';
  return [
    { label: 'cli', rules: cli },
    { label: LOCAL_LAYER, rules: { ...permissions.answerRules } },
    { label: 'project', rules: { ...permissions.projectRules }, annotations: permissions.projectAnnotations },
    { label: 'user', rules: { ...permissions.userRules }, annotations: permissions.userAnnotations },
  ];
}
