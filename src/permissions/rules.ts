/**
 * One rule set (a layer's `tools` map) compiled for matching, and what "more specific" means.
 * A rule key is either a tool name (`read`, `mcp_demo_dice`, `mcp_*`) or an MCP identity
 * (`mcp:<server>/<tool>`, the server's own tool name); each kind only ever matches its own kind of
 * subject, so `*` or `mcp_*` never read an identity and `mcp:gh/*` never reads a model name.
 */
import { wildcardRegExp } from '../util/tool-pattern.js';
import type { Policy } from './types.js';

/** What one rule says for one subject. */
export interface RuleHit {
  policy: Policy;
  rule: string;
}

/** The most specific deny and the most specific allow/ask of one rule set for one subject. */
export interface RuleHits {
  deny?: RuleHit;
  grant?: RuleHit;
}

const IDENTITY_PREFIX = 'mcp:';

/** The identity key of an MCP tool: server names never contain `/`, so the split is unambiguous. */
export function mcpIdentityKey(server: string, tool: string): string {
  return `${IDENTITY_PREFIX}${server}/${tool}`;
}

export function isIdentityRule(rule: string): boolean {
  return rule.startsWith(IDENTITY_PREFIX);
}

interface CompiledPattern {
  pattern: string;
  regex: RegExp;
  policy: Policy;
}

/** One rule set, compiled once: exact keys in a map, patterns sorted most specific first. */
export class CompiledRules {
  private readonly exact = new Map<string, Policy>();
  private readonly patterns: CompiledPattern[] = [];

  constructor(rules: Record<string, Policy>) {
    for (const [rule, policy] of Object.entries(rules)) {
      if (rule.includes('*')) this.patterns.push({ pattern: rule, regex: wildcardRegExp(rule), policy });
      else this.exact.set(rule, policy);
    }
    this.patterns.sort((a, b) => compareSpecificity(a.pattern, b.pattern) || compareCodeUnits(a, b));
  }

  /** One exact rule more, without recompiling the rest (MCP servers add hundreds of defaults). */
  addExact(key: string, policy: Policy): void {
    this.exact.set(key, policy);
  }

  /** The single most specific rule whatever its policy (defaults are read this way). */
  best(subject: string): RuleHit | undefined {
    const exact = this.exact.get(subject);
    if (exact !== undefined) return { policy: exact, rule: subject };
    for (const candidate of this.patterns) {
      if (sameKind(candidate.pattern, subject) && candidate.regex.test(subject))
        return { policy: candidate.policy, rule: candidate.pattern };
    }
    return undefined;
  }

  hits(subject: string): RuleHits {
    const hits: RuleHits = {};
    const exact = this.exact.get(subject);
    if (exact !== undefined) {
      if (exact === 'deny') return { deny: { policy: exact, rule: subject } };
      hits.grant = { policy: exact, rule: subject };
    }
    for (const candidate of this.patterns) {
      if (hits.deny && hits.grant) break;
      if (!sameKind(candidate.pattern, subject) || !candidate.regex.test(subject)) continue;
      const hit = { policy: candidate.policy, rule: candidate.pattern };
      if (candidate.policy === 'deny') hits.deny ??= hit;
      else hits.grant ??= hit;
    }
    return hits.deny ? { deny: hits.deny } : hits;
  }
}

function sameKind(rule: string, subject: string): boolean {
  return isIdentityRule(rule) === isIdentityRule(subject);
}

/**
 * Negative when rule `a` is more specific than `b`, 0 when equally specific: an exact key beats
 * every pattern, then more literal characters, then fewer `*`.
 */
export function compareSpecificity(a: string, b: string): number {
  const stars = (rule: string) => rule.split('*').length - 1;
  const exactA = stars(a) === 0;
  const exactB = stars(b) === 0;
  if (exactA !== exactB) return exactA ? -1 : 1;
  const literals = (rule: string) => rule.length - stars(rule);
  const byLiterals = literals(b) - literals(a);
  if (byLiterals !== 0) return byLiterals;
  return stars(a) - stars(b);
}

/** Locale-independent, so every machine orders equally specific patterns the same way. */
function compareCodeUnits(a: CompiledPattern, b: CompiledPattern): number {
  return a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0;
}

/**
 * The rule of one set that decides for `subject`, if any: a matching deny, else the most specific
 * allow/ask. Compiles on each call: not for hot paths.
 */
export function matchRules(rules: Record<string, Policy>, subject: string): RuleHit | undefined {
  const hits = new CompiledRules(rules).hits(subject);
  return hits.deny ?? hits.grant;
}
