/**
 * Policies by MCP annotation in the policy store: which hints count (declared `true` only), the
 * precedence against tool rules and layers, and that a re-listing with other annotations is
 * decided afresh (a server that drops readOnlyHint loses the allow it gave).
 */
import { describe, expect, it } from 'vitest';
import type { AnnotationRules } from '../../../src/permissions/annotations.js';
import { declaredHints } from '../../../src/permissions/annotations.js';
import { PolicyStore } from '../../../src/permissions/policy.js';
import type { Policy } from '../../../src/permissions/types.js';

function store(project: { rules?: Record<string, Policy>; annotations?: AnnotationRules }, user = project) {
  const policies = new PolicyStore({
    layers: [
      { label: 'cli', rules: {} },
      { label: 'project', rules: project.rules ?? {}, annotations: project.annotations },
      {
        label: 'user',
        rules: user === project ? {} : (user.rules ?? {}),
        annotations: user === project ? undefined : user.annotations,
      },
    ],
    defaults: {},
  });
  const register = (name: string, annotations: unknown) => {
    policies.registerMcpTool(`mcp_gh_${name}`, 'gh', { name, annotations });
    policies.ensureToolPolicy(`mcp_gh_${name}`, 'ask');
  };
  return { policies, register };
}

describe('annotation policies', () => {
  it('counts only hints declared true', () => {
    expect(declaredHints({ readOnlyHint: true, destructiveHint: false, openWorldHint: 'yes' })).toEqual([
      'readOnlyHint',
    ]);
    expect(declaredHints(undefined)).toEqual([]);
    expect(declaredHints('readOnlyHint')).toEqual([]);
  });

  it('applies the hint rules below tool rules; the strictest of two claimed hints wins', () => {
    const { policies, register } = store({
      rules: { mcp_gh_pinned: 'ask' },
      annotations: { 'mcp_gh_*': { readOnlyHint: 'allow', destructiveHint: 'ask' } },
    });
    register('read', { readOnlyHint: true });
    register('both', { readOnlyHint: true, destructiveHint: true });
    register('plain', {});
    register('pinned', { readOnlyHint: true });
    expect(policies.explain('mcp_gh_read')).toEqual({
      policy: 'allow',
      rule: 'annotations["mcp_gh_*"].readOnlyHint',
      layer: 'project',
    });
    expect(policies.policyFor('mcp_gh_both')).toBe('ask');
    expect(policies.explain('mcp_gh_plain')).toMatchObject({ policy: 'ask', layer: 'default' });
    expect(policies.explain('mcp_gh_pinned')).toMatchObject({ policy: 'ask', rule: 'mcp_gh_pinned' });
    // A built-in tool has no annotations: the rules never reach it.
    expect(policies.policyFor('read')).toBe('deny');
  });

  it('lets an annotation deny in any layer beat an explicit allow, and a more specific pattern win', () => {
    const { policies, register } = store(
      { rules: { 'mcp_gh_*': 'allow' }, annotations: { 'mcp_*': { readOnlyHint: 'allow' } } },
      { annotations: { 'mcp_gh_*': { destructiveHint: 'deny', readOnlyHint: 'ask' } } },
    );
    register('wipe', { destructiveHint: true });
    register('read', { readOnlyHint: true });
    expect(policies.explain('mcp_gh_wipe')).toMatchObject({ policy: 'deny', layer: 'user' });
    // The explicit allow decides the read tool; without it the more specific user pattern would.
    expect(policies.policyFor('mcp_gh_read')).toBe('allow');
    const bare = store(
      { annotations: { 'mcp_*': { readOnlyHint: 'allow' } } },
      { annotations: { 'mcp_gh_*': { readOnlyHint: 'ask' } } },
    );
    bare.register('read', { readOnlyHint: true });
    expect(bare.policies.explain('mcp_gh_read')).toMatchObject({ policy: 'ask', layer: 'user' });
  });

  it('decides afresh when a re-listing changes the annotations', () => {
    const { policies, register } = store({ annotations: { 'mcp_gh_*': { readOnlyHint: 'allow' } } });
    register('read', { readOnlyHint: true });
    expect(policies.policyFor('mcp_gh_read')).toBe('allow');
    register('read', {});
    expect(policies.policyFor('mcp_gh_read')).toBe('ask');
  });
});
