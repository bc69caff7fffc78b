/**
 * The policy store: decides allow/ask/deny for a tool name from layered rules (cli, project, user),
 * then the defaults, with `*` patterns. Owns the in-memory rules and "always allow" answers.
 */
import { BUILTIN_POLICIES } from './defaults.js';
import type { Policy, PolicyLookup } from './types.js';

export interface PolicyLayer {
  /** 'cli' | 'project' | 'user' ... — shown by explain() so a person can find the rule. */
  label: string;
  rules: Record<string, Policy>;
}

export interface PolicyMatch {
  policy: Policy;
  rule: string;
  layer: string;
}

export interface PolicyStoreOptions {
  /** Highest precedence first, e.g. [cli, project, user]. */
  layers: PolicyLayer[];
  defaults?: Record<string, Policy>;
  persistAllow?: (toolName: string) => Promise<void>;
}

interface CompiledPattern {
  pattern: string;
  regex: RegExp;
  policy: Policy;
}

/** One rule set, compiled once: exact names in a map, patterns sorted most specific first. */
class CompiledRules {
  private readonly exact = new Map<string, Policy>();
  private readonly patterns: CompiledPattern[] = [];

  constructor(rules: Record<string, Policy>) {
    for (const [rule, policy] of Object.entries(rules)) {
      if (rule.includes('*')) this.patterns.push({ pattern: rule, regex: patternToRegex(rule), policy });
      else this.exact.set(rule, policy);
    }
    this.patterns.sort((a, b) => compareSpecificity(a.pattern, b.pattern));
  }

  /** One exact rule more, without recompiling the rest (MCP servers add hundreds of defaults). */
  addExact(toolName: string, policy: Policy): void {
    this.exact.set(toolName, policy);
  }

  match(toolName: string): { policy: Policy; rule: string } | undefined {
    const exact = this.exact.get(toolName);
    if (exact !== undefined) return { policy: exact, rule: toolName };
    for (const candidate of this.patterns) {
      if (candidate.regex.test(toolName)) return { policy: candidate.policy, rule: candidate.pattern };
    }
    return undefined;
  }
}

/** `*` is any run of characters (even none); everything else is literal, regex metacharacters too. */
function patternToRegex(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((literal) => literal.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 's');
}

/** More literal characters first, then fewer `*`, then the pattern's code-unit order (not locale). */
function compareSpecificity(a: string, b: string): number {
  const stars = (pattern: string) => pattern.split('*').length - 1;
  const literals = (pattern: string) => pattern.length - stars(pattern);
  const byLiterals = literals(b) - literals(a);
  if (byLiterals !== 0) return byLiterals;
  const byStars = stars(a) - stars(b);
  if (byStars !== 0) return byStars;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The rule in one set that decides for `toolName`, if any. Compiles on each call: not for hot paths. */
export function matchRules(
  rules: Record<string, Policy>,
  toolName: string,
): { policy: Policy; rule: string } | undefined {
  return new CompiledRules(rules).match(toolName);
}

interface StoredLayer {
  label: string;
  rules: Record<string, Policy>;
  compiled: CompiledRules;
}

export class PolicyStore implements PolicyLookup {
  private readonly layers: StoredLayer[];
  private readonly defaults: Record<string, Policy>;
  private compiledDefaults: CompiledRules;
  /** Decisions by tool name; cleared whenever any rule changes. */
  private readonly decisions = new Map<string, PolicyMatch>();
  private readonly persistAllow: ((toolName: string) => Promise<void>) | undefined;
  /** Saves run one at a time: each re-reads and rewrites the config file. */
  private persisting: Promise<unknown> = Promise.resolve();

  constructor(options: PolicyStoreOptions) {
    // Copies: the store owns its rules, so outside edits cannot leave the compiled form stale.
    this.layers = options.layers.map((layer) => storedLayer(layer.label, { ...layer.rules }));
    this.defaults = { ...(options.defaults ?? BUILTIN_POLICIES) };
    this.compiledDefaults = new CompiledRules(this.defaults);
    this.persistAllow = options.persistAllow;
  }

  policyFor(toolName: string): Policy {
    return this.explain(toolName).policy;
  }

  /** Which rule decides, and from which layer: 'default' for defaults, 'unknown' when none does. */
  explain(toolName: string): PolicyMatch {
    const cached = this.decisions.get(toolName);
    if (cached) return cached;
    const decision = Object.freeze(this.decide(toolName));
    this.decisions.set(toolName, decision);
    return decision;
  }

  /** Gives a tool (MCP, skill) a default; an existing exact default or any configured rule wins. */
  ensureToolPolicy(toolName: string, policy: Policy): void {
    if (Object.hasOwn(this.defaults, toolName)) return;
    this.defaults[toolName] = policy;
    if (toolName.includes('*')) {
      this.compiledDefaults = new CompiledRules(this.defaults);
      this.decisions.clear();
      return;
    }
    // An exact default changes only this name's decision: no recompiling, no cache flush.
    this.compiledDefaults.addExact(toolName, policy);
    this.decisions.delete(toolName);
  }

  /** An "always" answer: `allow` for this exact name in the project layer, then saved. */
  async allowAlways(toolName: string): Promise<void> {
    const project = this.projectLayer();
    project.rules[toolName] = 'allow';
    project.compiled = new CompiledRules(project.rules);
    this.decisions.clear();
    const persist = this.persistAllow;
    if (!persist) return;
    const saved = this.persisting.then(() => persist(toolName));
    this.persisting = saved.catch(() => undefined);
    await saved;
  }

  private decide(toolName: string): PolicyMatch {
    for (const layer of this.layers) {
      const match = layer.compiled.match(toolName);
      if (match) return { ...match, layer: layer.label };
    }
    const fallback = this.compiledDefaults.match(toolName);
    if (fallback) return { ...fallback, layer: 'default' };
    return { policy: 'deny', rule: '', layer: 'unknown' };
  }

  private projectLayer(): StoredLayer {
    const existing = this.layers.find((layer) => layer.label === 'project');
    if (existing) return existing;
    const created = storedLayer('project', {});
    const cli = this.layers.findIndex((layer) => layer.label === 'cli');
    this.layers.splice(cli + 1, 0, created);
    return created;
  }
}

function storedLayer(label: string, rules: Record<string, Policy>): StoredLayer {
  return { label, rules, compiled: new CompiledRules(rules) };
}
