/**
 * Policies by MCP tool annotation: `"annotations": {"mcp_github_*": {"readOnlyHint": "allow",
 * "destructiveHint": "ask"}}` in GeekAgent.json. A rule applies to a tool whose server declares
 * that hint `true` (annotations are the server's claim, not a fact: trust them only for servers you
 * trust). Patterns are read like tool-rule keys (model names or `mcp:<server>/<tool>` identities).
 * Within one layer the most specific matching pattern wins, then the strictest policy (a tool that
 * claims both readOnlyHint and destructiveHint is asked when either says ask). How this ranks
 * against tool rules is the policy store's (policy.ts): an explicit tool rule beats an annotation
 * rule, and a deny in any layer still beats every allow.
 */
import * as z from '../util/schema.js';
import { CompiledRules, compareSpecificity, type RuleHit, type RuleHits } from './rules.js';
import type { Policy } from './types.js';

export const ANNOTATION_HINTS = [
  'readOnlyHint',
  'destructiveHint',
  'idempotentHint',
  'openWorldHint',
] as const;
export type AnnotationHint = (typeof ANNOTATION_HINTS)[number];
/** Pattern → hint → policy. */
export type AnnotationRules = Record<string, Partial<Record<AnnotationHint, Policy>>>;

/** Built on first use (with the permission file's schema). */
export const annotationRulesSchema = z.lazySchema(() =>
  z.record(z.string(), z.partialRecord(z.enum(ANNOTATION_HINTS), z.enum(['allow', 'ask', 'deny']))),
);

/** How much a policy holds back (also: a narrowing file may only move a rule up this scale). */
export const POLICY_STRICTNESS: Record<Policy, number> = { allow: 0, ask: 1, deny: 2 };

/** The hints a tool's annotations declare `true` (anything else declares nothing). */
export function declaredHints(annotations: unknown): AnnotationHint[] {
  if (typeof annotations !== 'object' || annotations === null) return [];
  const record = annotations as Record<string, unknown>;
  return ANNOTATION_HINTS.filter((hint) => record[hint] === true);
}

/** How an annotation rule is named in `explain()` and messages. */
export function annotationRuleLabel(pattern: string, hint: AnnotationHint): string {
  return `annotations["${pattern}"].${hint}`;
}

/** One layer's annotation rules, compiled per hint. */
export class CompiledAnnotationRules {
  private readonly byHint = new Map<AnnotationHint, CompiledRules>();

  constructor(rules: AnnotationRules) {
    for (const hint of ANNOTATION_HINTS) {
      const forHint: Record<string, Policy> = {};
      for (const [pattern, hints] of Object.entries(rules)) {
        const policy = hints[hint];
        if (policy) forHint[pattern] = policy;
      }
      if (Object.keys(forHint).length > 0) this.byHint.set(hint, new CompiledRules(forHint));
    }
  }

  get empty(): boolean {
    return this.byHint.size === 0;
  }

  /** The deciding deny, or the most specific (then strictest) allow/ask, for a tool's subjects. */
  hits(subjects: readonly string[], hints: readonly AnnotationHint[]): RuleHits {
    let deny: RuleHit | undefined;
    let grant: { hit: RuleHit; pattern: string } | undefined;
    for (const hint of hints) {
      const compiled = this.byHint.get(hint);
      if (!compiled) continue;
      for (const subject of subjects) {
        const found = compiled.hits(subject);
        if (found.deny) deny ??= { policy: 'deny', rule: annotationRuleLabel(found.deny.rule, hint) };
        if (!found.grant) continue;
        const candidate = {
          hit: { policy: found.grant.policy, rule: annotationRuleLabel(found.grant.rule, hint) },
          pattern: found.grant.rule,
        };
        if (!grant) {
          grant = candidate;
          continue;
        }
        const order = compareSpecificity(candidate.pattern, grant.pattern);
        if (
          order < 0 ||
          (order === 0 && POLICY_STRICTNESS[candidate.hit.policy] > POLICY_STRICTNESS[grant.hit.policy])
        )
          grant = candidate;
      }
    }
    if (deny) return { deny };
    return grant ? { grant: grant.hit } : {};
  }
}

/** A grant's pattern back from its label (for comparing specificity across layers). */
export function annotationPattern(label: string): string {
  const match = /^annotations\["(.*)"\]\.[A-Za-z]+$/s.exec(label);
  return match ? match[1]! : label;
}
