import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveAnswer } from '../../../src/permissions/answers-file.js';
import { loadPermissionConfig } from '../../../src/permissions/config.js';
import { BUILTIN_POLICIES } from '../../../src/permissions/defaults.js';
import { policyLayers } from '../../../src/permissions/layers.js';
import { matchRules, type PolicyLayer, PolicyStore } from '../../../src/permissions/policy.js';
import type { Policy } from '../../../src/permissions/types.js';

describe('matchRules', () => {
  it('lets a matching deny win over any allow or ask in the same set, however specific', () => {
    const rules: Record<string, Policy> = { 'mcp_demo_*': 'deny', mcp_demo_dice: 'allow', '*': 'ask' };
    expect(matchRules(rules, 'mcp_demo_dice')).toEqual({ policy: 'deny', rule: 'mcp_demo_*' });
    expect(matchRules(rules, 'read')).toEqual({ policy: 'ask', rule: '*' });
    expect(matchRules({ '*': 'ask', mcp_demo_dice: 'allow' }, 'mcp_demo_dice')).toEqual({
      policy: 'allow',
      rule: 'mcp_demo_dice',
    });
  });

  it('picks the allow/ask pattern with the most literal characters', () => {
    const rules: Record<string, Policy> = { 'mcp_*': 'ask', 'mcp_demo_*': 'allow', '*_dice': 'ask' };
    expect(matchRules(rules, 'mcp_demo_dice')).toEqual({ policy: 'allow', rule: 'mcp_demo_*' });
    expect(matchRules(rules, 'mcp_other_dice')).toEqual({ policy: 'ask', rule: '*_dice' });
    expect(matchRules(rules, 'mcp_other_roll')).toEqual({ policy: 'ask', rule: 'mcp_*' });
  });

  it('breaks a tie on literals with fewer stars, then with the lexically first pattern', () => {
    // 'ab*' and 'a*b*' both have 2 literals; the one with fewer stars wins.
    expect(matchRules({ 'a*b*': 'ask', 'ab*': 'allow' }, 'abc')).toEqual({ policy: 'allow', rule: 'ab*' });
    // Same literals and stars: the lexically first wins, in either insertion order.
    expect(matchRules({ 'x*': 'ask', '*x': 'allow' }, 'xx')).toEqual({ policy: 'allow', rule: '*x' });
    expect(matchRules({ '*x': 'allow', 'x*': 'ask' }, 'xx')).toEqual({ policy: 'allow', rule: '*x' });
  });

  it('matches MCP identity rules (mcp:<server>/<tool>) only against identities, and name rules only against names', () => {
    const rules: Record<string, Policy> = { 'mcp:gh/*': 'allow', '*': 'ask' };
    expect(matchRules(rules, 'mcp:gh/x_read')).toEqual({ policy: 'allow', rule: 'mcp:gh/*' });
    // `*` is a name rule: an identity is not a name.
    expect(matchRules(rules, 'mcp:gh_x/read')).toBeUndefined();
    expect(matchRules(rules, 'mcp_gh_x_read')).toEqual({ policy: 'ask', rule: '*' });
    expect(matchRules({ 'mcp:gh/x_read': 'deny' }, 'mcp:gh/x_read')?.policy).toBe('deny');
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

  it('lets a deny in any layer beat an allow in any layer, and names the deny', () => {
    const store = new PolicyStore({
      layers: layers(
        { '*': 'allow', mcp_demo_dice: 'allow' },
        { write: 'deny', run_shell: 'allow' },
        { run_shell: 'deny', 'mcp_*': 'deny' },
      ),
    });
    // `--allow '*'` no longer beats a project's exact deny, nor an exact cli allow a user pattern deny.
    expect(store.explain('write')).toEqual({ policy: 'deny', rule: 'write', layer: 'project' });
    expect(store.explain('run_shell')).toEqual({ policy: 'deny', rule: 'run_shell', layer: 'user' });
    expect(store.explain('mcp_demo_dice')).toEqual({ policy: 'deny', rule: 'mcp_*', layer: 'user' });
    expect(store.explain('read')).toEqual({ policy: 'allow', rule: '*', layer: 'cli' });
  });

  it('among allows and asks: the most specific rule, then the stronger layer (cli > project > user)', () => {
    const store = new PolicyStore({
      layers: layers(
        { 'run_*': 'allow', fetch: 'allow', 'mcp_*': 'allow' },
        { run_shell: 'ask', fetch: 'ask', 'mcp_demo_*': 'ask' },
        { mcp_demo_dice: 'allow', 'mcp_*': 'ask' },
      ),
    });
    // An exact project ask is more specific than a cli pattern allow.
    expect(store.explain('run_shell')).toEqual({ policy: 'ask', rule: 'run_shell', layer: 'project' });
    // Equally specific: the stronger layer.
    expect(store.explain('fetch')).toEqual({ policy: 'allow', rule: 'fetch', layer: 'cli' });
    expect(store.explain('mcp_other_x')).toEqual({ policy: 'allow', rule: 'mcp_*', layer: 'cli' });
    // The user's exact rule beats the project's pattern.
    expect(store.explain('mcp_demo_dice')).toEqual({ policy: 'allow', rule: 'mcp_demo_dice', layer: 'user' });
    expect(store.explain('mcp_demo_roll')).toEqual({ policy: 'ask', rule: 'mcp_demo_*', layer: 'project' });
  });

  it('falls back to the defaults only when no rule in any layer matches', () => {
    const store = new PolicyStore({ layers: layers({}, {}, { read: 'ask', 'w*': 'deny' }) });
    expect(store.explain('read')).toEqual({ policy: 'ask', rule: 'read', layer: 'user' });
    expect(store.explain('write')).toEqual({ policy: 'deny', rule: 'w*', layer: 'user' });
    expect(store.explain('fetch')).toEqual({ policy: 'ask', rule: 'fetch', layer: 'default' });
    expect(store.policyFor('ls')).toBe('allow');
  });

  it('can be given any subset of layers (a layer may be dropped or filtered by its caller)', () => {
    const store = new PolicyStore({
      layers: [
        { label: 'cli', rules: {} },
        { label: 'user', rules: { read: 'deny' } },
      ],
    });
    expect(store.explain('read')).toEqual({ policy: 'deny', rule: 'read', layer: 'user' });
    expect(store.explain('ls')).toEqual({ policy: 'allow', rule: 'ls', layer: 'default' });
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

  it("allowAlways adds an exact allow in the person's own (local) layer; a deny anywhere still wins", async () => {
    const store = new PolicyStore({
      layers: layers({ 'run_*': 'deny', fetch: 'ask' }, {}, { fetch: 'ask', write: 'ask' }),
    });
    await store.allowAlways('write');
    expect(store.explain('write')).toEqual({ policy: 'allow', rule: 'write', layer: 'local' });
    await store.allowAlways('fetch');
    // An equally specific cli ask is the stronger layer.
    expect(store.explain('fetch')).toEqual({ policy: 'ask', rule: 'fetch', layer: 'cli' });
    await store.allowAlways('run_shell');
    expect(store.policyFor('run_shell')).toBe('deny');
  });

  it('denyAlways (an editor\'s "always reject") adds an exact deny there, saved through persistDeny, over an earlier allow', async () => {
    const saved: string[] = [];
    const store = new PolicyStore({
      layers: layers({}, { write: 'allow' }, {}),
      persistAllow: async (name) => {
        saved.push(`allow ${name}`);
      },
      persistDeny: async (name) => {
        saved.push(`deny ${name}`);
      },
    });
    await store.allowAlways('fetch');
    await store.denyAlways('fetch');
    await store.denyAlways('write');
    expect(store.explain('fetch')).toEqual({ policy: 'deny', rule: 'fetch', layer: 'local' });
    // A deny anywhere wins over the project's allow.
    expect(store.policyFor('write')).toBe('deny');
    expect(saved).toEqual(['allow fetch', 'deny fetch', 'deny write']);
  });

  it('allowAlways creates the local layer right after cli when it is missing', async () => {
    const store = new PolicyStore({
      layers: [
        { label: 'cli', rules: { fetch: 'ask' } },
        { label: 'user', rules: { fetch: 'ask', write: 'ask' } },
      ],
    });
    await store.allowAlways('fetch');
    await store.allowAlways('write');
    expect(store.explain('fetch')).toEqual({ policy: 'ask', rule: 'fetch', layer: 'cli' });
    expect(store.explain('write')).toEqual({ policy: 'allow', rule: 'write', layer: 'local' });
  });

  it('allowAlways creates the local layer first when there is no cli layer', async () => {
    const store = new PolicyStore({ layers: [{ label: 'user', rules: { fetch: 'ask' } }] });
    await store.allowAlways('fetch');
    expect(store.explain('fetch')).toEqual({ policy: 'allow', rule: 'fetch', layer: 'local' });
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

    it('persists "always" answers in the user state, in parallel, so a fresh load sees them all', async () => {
      const home = path.join(dir, 'home');
      const userDir = path.join(home, '.geekagent');
      const project = path.join(dir, 'project');
      await mkdir(project);
      const config = await loadPermissionConfig({ projectDir: project, homeDir: home });
      const store = new PolicyStore({
        layers: policyLayers(config, {}),
        persistAllow: (name) => saveAnswer(userDir, config.answersFile, name),
      });
      expect(store.policyFor('mcp_demo_dice')).toBe('deny');
      await Promise.all(['mcp_demo_dice', 'run_shell', 'fetch'].map((name) => store.allowAlways(name)));
      expect(store.policyFor('mcp_demo_dice')).toBe('allow');

      expect(config.answersFile.startsWith(path.join(userDir, 'projects'))).toBe(true);
      const saved = JSON.parse(await readFile(config.answersFile, 'utf8'));
      expect(saved.tools).toEqual({ mcp_demo_dice: 'allow', run_shell: 'allow', fetch: 'allow' });
      expect((await stat(config.answersFile)).mode & 0o777).toBe(0o600);
      // Nothing was written into the project folder.
      expect(await readdir(project)).toEqual([]);
      const reloaded = await loadPermissionConfig({ projectDir: project, homeDir: home });
      const next = new PolicyStore({ layers: policyLayers(reloaded, {}) });
      expect(next.explain('mcp_demo_dice')).toEqual({
        policy: 'allow',
        rule: 'mcp_demo_dice',
        layer: 'local',
      });
    });

    it("applies the user file's denies to built-in tools, even with a project file that repeats every default", async () => {
      const home = path.join(dir, 'home');
      // The file older versions created on first start, plus one decision of the person's.
      await mkdir(path.join(dir, '.geekagent'), { recursive: true });
      await mkdir(path.join(home, '.geekagent'), { recursive: true });
      await writeFile(
        path.join(dir, '.geekagent', 'GeekAgent.json'),
        JSON.stringify({ root: '..', tools: { ...BUILTIN_POLICIES, mcp_demo_dice: 'allow' } }),
      );
      await writeFile(
        path.join(home, '.geekagent', 'GeekAgent.json'),
        JSON.stringify({ tools: { read: 'deny', run_shell: 'deny', fetch: 'allow' } }),
      );
      const config = await loadPermissionConfig({ projectDir: dir, homeDir: home });
      const store = new PolicyStore({
        layers: [
          { label: 'project', rules: config.projectRules },
          { label: 'user', rules: config.userRules },
        ],
      });
      expect(store.explain('read')).toEqual({ policy: 'deny', rule: 'read', layer: 'user' });
      expect(store.policyFor('run_shell')).toBe('deny');
      expect(store.explain('fetch')).toEqual({ policy: 'allow', rule: 'fetch', layer: 'user' });
      expect(store.explain('ls')).toEqual({ policy: 'allow', rule: 'ls', layer: 'default' });
      expect(store.explain('mcp_demo_dice').layer).toBe('project');
    });
  });
});

describe('PolicyStore and MCP tool identity', () => {
  const dice = { name: 'dice', description: 'Roll a die.' };

  it('matches mcp:<server>/<tool> rules against the registered identity only', () => {
    const store = new PolicyStore({
      layers: [{ label: 'project', rules: { 'mcp:gh/x_read': 'allow', 'mcp:gh_x/*': 'deny' } }],
    });
    store.registerMcpTool('mcp_gh_x_read', 'gh', { name: 'x_read' });
    store.ensureToolPolicy('mcp_gh_x_read', 'ask');
    expect(store.explain('mcp_gh_x_read')).toEqual({
      policy: 'allow',
      rule: 'mcp:gh/x_read',
      layer: 'project',
    });
    // The same model-facing name, now answered by server gh_x's tool read: the rule is not its.
    store.registerMcpTool('mcp_gh_x_read', 'gh_x', { name: 'read' });
    expect(store.explain('mcp_gh_x_read')).toEqual({ policy: 'deny', rule: 'mcp:gh_x/*', layer: 'project' });
    // An identity rule never reads a tool that is not a registered MCP tool.
    expect(store.policyFor('mcp_other_read')).toBe('deny');
  });

  it('prefers an identity rule over an equally specific name rule in the same layer', () => {
    const store = new PolicyStore({
      layers: [{ label: 'project', rules: { mcp_demo_dice: 'ask', 'mcp:demo/dice': 'allow' } }],
    });
    store.registerMcpTool('mcp_demo_dice', 'demo', dice);
    expect(store.explain('mcp_demo_dice').rule).toBe('mcp:demo/dice');
  });

  it('saves an "always" answer for an MCP tool under its identity, which another server never inherits', async () => {
    const saved: string[] = [];
    const store = new PolicyStore({
      layers: [{ label: 'project', rules: {} }],
      persistAllow: async (rule) => {
        saved.push(rule);
      },
    });
    store.registerMcpTool('mcp_de_mo_dice', 'de.mo', dice);
    store.ensureToolPolicy('mcp_de_mo_dice', 'ask');
    await store.allowAlways('mcp_de_mo_dice');
    expect(saved).toEqual(['mcp:de.mo/dice']);
    expect(store.policyFor('mcp_de_mo_dice')).toBe('allow');

    // Next start: a server named de_mo (same sanitised name) lists a tool dice.
    const next = new PolicyStore({ layers: [{ label: 'project', rules: { [saved[0]!]: 'allow' } }] });
    next.registerMcpTool('mcp_de_mo_dice', 'de_mo', dice);
    next.ensureToolPolicy('mcp_de_mo_dice', 'ask');
    expect(next.explain('mcp_de_mo_dice')).toEqual({
      policy: 'ask',
      rule: 'mcp_de_mo_dice',
      layer: 'default',
    });
  });
});
