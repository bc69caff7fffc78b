import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPermissionConfig, saveAllowRule } from '../../../src/permissions/config.js';
import { BUILTIN_POLICIES } from '../../../src/permissions/defaults.js';
import { matchRules, type PolicyLayer, PolicyStore } from '../../../src/permissions/policy.js';
import type { Policy } from '../../../src/permissions/types.js';

describe('matchRules', () => {
  it('prefers an exact name over any pattern, whatever the key order', () => {
    const rules: Record<string, Policy> = { 'mcp_demo_*': 'deny', '*': 'deny', mcp_demo_dice: 'allow' };
    expect(matchRules(rules, 'mcp_demo_dice')).toEqual({ policy: 'allow', rule: 'mcp_demo_dice' });
    expect(matchRules(rules, 'mcp_demo_other')).toEqual({ policy: 'deny', rule: 'mcp_demo_*' });
  });

  it('picks the pattern with the most literal characters', () => {
    const rules: Record<string, Policy> = { 'mcp_*': 'deny', 'mcp_demo_*': 'allow', '*_dice': 'ask' };
    expect(matchRules(rules, 'mcp_demo_dice')).toEqual({ policy: 'allow', rule: 'mcp_demo_*' });
    expect(matchRules(rules, 'mcp_other_dice')).toEqual({ policy: 'ask', rule: '*_dice' });
    expect(matchRules(rules, 'mcp_other_roll')).toEqual({ policy: 'deny', rule: 'mcp_*' });
  });

  it('breaks a tie on literals with fewer stars, then with the lexically first pattern', () => {
    // 'ab*' and 'a*b*' both have 2 literals; the one with fewer stars wins.
    expect(matchRules({ 'a*b*': 'deny', 'ab*': 'allow' }, 'abc')).toEqual({ policy: 'allow', rule: 'ab*' });
    // Same literals and stars: the lexically first wins, in either insertion order.
    expect(matchRules({ 'x*': 'deny', '*x': 'allow' }, 'xx')).toEqual({ policy: 'allow', rule: '*x' });
    expect(matchRules({ '*x': 'allow', 'x*': 'deny' }, 'xx')).toEqual({ policy: 'allow', rule: '*x' });
  });

  it('lets * match any run of characters, including none, at the edges and in the middle', () => {
    expect(matchRules({ 'mcp_*_dice': 'allow' }, 'mcp_demo_dice')?.policy).toBe('allow');
    expect(matchRules({ 'mcp_*_dice': 'allow' }, 'mcp__dice')?.policy).toBe('allow');
    expect(matchRules({ 'mcp_*_dice': 'allow' }, 'mcp_dice')).toBeUndefined();
    expect(matchRules({ '*shell': 'deny' }, 'run_shell')?.policy).toBe('deny');
    expect(matchRules({ '*shell': 'deny' }, 'shell')?.policy).toBe('deny');
    expect(matchRules({ '*shell': 'deny' }, 'shells')).toBeUndefined();
    expect(matchRules({ 'run*': 'deny' }, 'run')?.policy).toBe('deny');
    expect(matchRules({ 'run*': 'deny' }, 'xrun')).toBeUndefined();
    expect(matchRules({ '*': 'ask' }, '')?.policy).toBe('ask');
    expect(matchRules({ 'a**b': 'ask' }, 'ab')?.policy).toBe('ask');
  });

  it('treats regex metacharacters in rules as literal characters', () => {
    expect(matchRules({ 'mcp_a.b_*': 'allow' }, 'mcp_a.b_x')?.policy).toBe('allow');
    expect(matchRules({ 'mcp_a.b_*': 'allow' }, 'mcp_aXb_x')).toBeUndefined();
    expect(matchRules({ 'a+(b)|c?*': 'allow' }, 'a+(b)|c?d')?.policy).toBe('allow');
    expect(matchRules({ 'a+(b)|c?*': 'allow' }, 'aab')).toBeUndefined();
    expect(matchRules({ '[x]\\^$*': 'deny' }, '[x]\\^$')?.policy).toBe('deny');
    expect(matchRules({ '[x]\\^$*': 'deny' }, 'x')).toBeUndefined();
  });

  it('matches only the whole name, and nothing in an empty rule set', () => {
    expect(matchRules({ 'demo*': 'allow' }, 'mcp_demo_dice')).toBeUndefined();
    expect(matchRules({ read: 'allow' }, 'read_more')).toBeUndefined();
    expect(matchRules({}, 'read')).toBeUndefined();
  });
});

describe('PolicyStore', () => {
  const layers = (
    cli: Record<string, Policy>,
    project: Record<string, Policy>,
    user: Record<string, Policy>,
  ) =>
    [
      { label: 'cli', rules: cli },
      { label: 'project', rules: project },
      { label: 'user', rules: user },
    ] satisfies PolicyLayer[];

  it('lets the first layer with a matching rule decide: cli > project > user > defaults', () => {
    const store = new PolicyStore({
      layers: layers(
        { 'mcp_*': 'deny' },
        { mcp_demo_dice: 'allow', run_shell: 'allow' },
        { run_shell: 'deny', read: 'ask' },
      ),
    });
    // A cli pattern beats an exact project rule: layers are decided before specificity.
    expect(store.explain('mcp_demo_dice')).toEqual({ policy: 'deny', rule: 'mcp_*', layer: 'cli' });
    expect(store.explain('run_shell')).toEqual({ policy: 'allow', rule: 'run_shell', layer: 'project' });
    expect(store.explain('read')).toEqual({ policy: 'ask', rule: 'read', layer: 'user' });
    expect(store.explain('write')).toEqual({ policy: 'ask', rule: 'write', layer: 'default' });
    expect(store.policyFor('ls')).toBe('allow');
  });

  it('uses BUILTIN_POLICIES as defaults unless others are given', () => {
    const builtin = new PolicyStore({ layers: [] });
    for (const [name, policy] of Object.entries(BUILTIN_POLICIES))
      expect(builtin.policyFor(name)).toBe(policy);
    const custom = new PolicyStore({ layers: [], defaults: { read: 'deny' } });
    expect(custom.policyFor('read')).toBe('deny');
    expect(custom.policyFor('ls')).toBe('deny');
  });

  it('denies unknown tools', () => {
    const store = new PolicyStore({ layers: layers({}, { read: 'allow' }, {}) });
    expect(store.explain('mcp_demo_dice')).toEqual({ policy: 'deny', rule: '', layer: 'unknown' });
    expect(store.policyFor('constructor')).toBe('deny');
    expect(store.policyFor('__proto__')).toBe('deny');
  });

  it('gives new tools a default with ensureToolPolicy, without overriding rules or defaults', () => {
    const store = new PolicyStore({
      layers: layers({}, { mcp_demo_dice: 'allow' }, { 'mcp_user_*': 'deny' }),
    });
    store.ensureToolPolicy('mcp_demo_roll', 'ask');
    store.ensureToolPolicy('mcp_demo_dice', 'ask');
    store.ensureToolPolicy('mcp_user_x', 'ask');
    store.ensureToolPolicy('run_shell', 'allow');
    expect(store.explain('mcp_demo_roll')).toEqual({
      policy: 'ask',
      rule: 'mcp_demo_roll',
      layer: 'default',
    });
    expect(store.policyFor('mcp_demo_dice')).toBe('allow');
    expect(store.policyFor('mcp_user_x')).toBe('deny');
    expect(store.policyFor('run_shell')).toBe('ask');
  });

  it('lets ensureToolPolicy add an exact default even when a default pattern matches', () => {
    const store = new PolicyStore({ layers: [], defaults: { 'mcp_*': 'deny' } });
    expect(store.policyFor('mcp_demo_dice')).toBe('deny');
    store.ensureToolPolicy('mcp_demo_dice', 'ask');
    expect(store.policyFor('mcp_demo_dice')).toBe('ask');
  });

  it('does not see later edits to the objects it was built from', () => {
    const project: Record<string, Policy> = { read: 'allow' };
    const defaults: Record<string, Policy> = { ls: 'allow' };
    const store = new PolicyStore({ layers: [{ label: 'project', rules: project }], defaults });
    expect(store.policyFor('read')).toBe('allow');
    project.read = 'deny';
    defaults.ls = 'deny';
    expect(store.policyFor('read')).toBe('allow');
    expect(store.policyFor('ls')).toBe('allow');
  });

  it('allowAlways adds an exact allow in the project layer, below cli and above user', async () => {
    const store = new PolicyStore({ layers: layers({ 'run_*': 'deny' }, {}, { fetch: 'deny' }) });
    expect(store.policyFor('fetch')).toBe('deny');
    await store.allowAlways('fetch');
    expect(store.explain('fetch')).toEqual({ policy: 'allow', rule: 'fetch', layer: 'project' });
    await store.allowAlways('run_shell');
    expect(store.policyFor('run_shell')).toBe('deny');
  });

  it('allowAlways creates the project layer right after cli when it is missing', async () => {
    const store = new PolicyStore({
      layers: [
        { label: 'cli', rules: { 'mcp_*': 'deny' } },
        { label: 'user', rules: { mcp_demo_dice: 'deny', fetch: 'deny' } },
      ],
    });
    await store.allowAlways('fetch');
    await store.allowAlways('mcp_demo_dice');
    expect(store.explain('fetch')).toEqual({ policy: 'allow', rule: 'fetch', layer: 'project' });
    expect(store.policyFor('mcp_demo_dice')).toBe('deny');
  });

  it('allowAlways creates the project layer first when there is no cli layer', async () => {
    const store = new PolicyStore({ layers: [{ label: 'user', rules: { fetch: 'deny' } }] });
    await store.allowAlways('fetch');
    expect(store.explain('fetch').layer).toBe('project');
  });

  it('allowAlways waits for persistAllow and passes its failure on', async () => {
    const saved: string[] = [];
    const store = new PolicyStore({
      layers: [],
      persistAllow: async (name) => {
        if (name === 'broken') throw new Error('disk full');
        saved.push(name);
      },
    });
    await store.allowAlways('fetch');
    expect(saved).toEqual(['fetch']);
    await expect(store.allowAlways('broken')).rejects.toThrow('disk full');
    // The answer still holds for this run, and later saves are not blocked by the failure.
    expect(store.policyFor('broken')).toBe('allow');
    await store.allowAlways('write');
    expect(saved).toEqual(['fetch', 'write']);
  });

  describe('with a real project file', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'geekagent-policy-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('persists "always" answers, in parallel, so a fresh load sees them all', async () => {
      const config = await loadPermissionConfig({ projectDir: dir, homeDir: path.join(dir, 'home') });
      const store = new PolicyStore({
        layers: [{ label: 'project', rules: config.projectRules }],
        persistAllow: (name) => saveAllowRule(config.projectFile, name),
      });
      expect(store.policyFor('mcp_demo_dice')).toBe('deny');
      await Promise.all(['mcp_demo_dice', 'run_shell', 'fetch'].map((name) => store.allowAlways(name)));
      expect(store.policyFor('mcp_demo_dice')).toBe('allow');

      const saved = JSON.parse(await readFile(config.projectFile, 'utf8'));
      expect(saved.tools).toMatchObject({ mcp_demo_dice: 'allow', run_shell: 'allow', fetch: 'allow' });
      const reloaded = await loadPermissionConfig({ projectDir: dir, homeDir: path.join(dir, 'home') });
      const next = new PolicyStore({ layers: [{ label: 'project', rules: reloaded.projectRules }] });
      expect(next.explain('mcp_demo_dice')).toEqual({
        policy: 'allow',
        rule: 'mcp_demo_dice',
        layer: 'project',
      });
    });
  });
});
