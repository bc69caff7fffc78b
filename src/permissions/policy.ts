/**
 * The policy store: decides allow/ask/deny for a tool from layered rules (cli, project, user) and
 * the defaults. A `deny` in any layer wins; otherwise the most specific allow/ask rule wins, then
 * the stronger layer; then rules by MCP annotation (annotations.ts; their deny also beats every
 * allow); the defaults decide only when no rule matches. MCP tools are known by their
 * identity (server, original tool name) as well as their model-facing name, and their definitions
 * are checked against pins before an `allow` holds. Owns the in-memory rules and "always" answers.
 */
import {
  type AnnotationRules,
  annotationPattern,
  CompiledAnnotationRules,
  declaredHints,
} from './annotations.js';
import { BUILTIN_POLICIES } from './defaults.js';
import { LOCAL_LAYER, type PolicyLayer } from './layers.js';
import type { PinnedTool, PinStore, ToolDefinition } from './pins.js';
import { CompiledRules, compareSpecificity, isIdentityRule, mcpIdentityKey, type RuleHit } from './rules.js';
import type { Policy, PolicyLookup, PolicyVerdict } from './types.js';

// Defined with the layers a run reads (layers.ts), which this store's "always" writes into.
export type { PolicyLayer } from './layers.js';
export { matchRules, mcpIdentityKey } from './rules.js';

export interface PolicyMatch {
  policy: Policy;
  rule: string;
  layer: string;
}

export interface PolicyStoreOptions {
  /** Strongest first, e.g. [cli, project, user]. A layer may be left out or filtered by the caller. */
  layers: PolicyLayer[];
  defaults?: Record<string, Policy>;
  /** Saves an "always" answer: gets the rule key (a tool name, or `mcp:<server>/<tool>`). */
  persistAllow?: (rule: string) => Promise<void>;
  /** Saves a "never" answer (an editor's "always reject") the same way, as a `deny`. */
  persistDeny?: (rule: string) => Promise<void>;
  /** Pinned MCP definitions; without it MCP tools are never checked against pins. */
  pins?: PinStore;
}

interface StoredLayer {
  label: string;
  rules: Record<string, Policy>;
  compiled: CompiledRules;
  annotations: CompiledAnnotationRules;
}

export class PolicyStore implements PolicyLookup {
  private readonly layers: StoredLayer[];
  private readonly defaults: Record<string, Policy>;
  private compiledDefaults: CompiledRules;
  /** Decisions by tool name; cleared whenever any rule changes. */
  private readonly decisions = new Map<string, PolicyMatch>();
  /** MCP tools by model-facing name: their server and definition. */
  private readonly mcpTools = new Map<string, PinnedTool>();
  private readonly persistAllow: ((rule: string) => Promise<void>) | undefined;
  private readonly persistDeny: ((rule: string) => Promise<void>) | undefined;
  private readonly pins: PinStore | undefined;
  /** A background pin write that failed, told with the next verdict. */
  private pinFailure: string | undefined;
  /** Pre-approvals by who grants them (`skill`, `command`): each asked live on every verdict. */
  private readonly preApproved = new Map<string, (toolName: string) => boolean>();
  /** Saves run one at a time: each re-reads and rewrites the config file. */
  private persisting: Promise<unknown> = Promise.resolve();

  constructor(options: PolicyStoreOptions) {
    // Copies: the store owns its rules, so outside edits cannot leave the compiled form stale.
    this.layers = options.layers.map((layer) =>
      storedLayer(layer.label, { ...layer.rules }, layer.annotations),
    );
    this.defaults = { ...(options.defaults ?? BUILTIN_POLICIES) };
    this.compiledDefaults = new CompiledRules(this.defaults);
    this.persistAllow = options.persistAllow;
    this.persistDeny = options.persistDeny;
    this.pins = options.pins;
  }

  policyFor(toolName: string): Policy {
    return this.explain(toolName).policy;
  }

  /**
   * Which rule decides, and from which layer: 'default' for defaults, 'unknown' when none does.
   * `preApproval`: whether a skill's pre-approval counts (not for a sub-agent's calls).
   */
  explain(toolName: string, preApproval = true): PolicyMatch {
    const decision = this.decisions.get(toolName) ?? Object.freeze(this.decide(toolName));
    this.decisions.set(toolName, decision);
    // An active skill's (or a running custom command's) `allowed-tools` turns ask into allow; a
    // deny (any layer, default, unknown) stays.
    if (preApproval && decision.policy !== 'deny')
      for (const [source, match] of this.preApproved)
        if (match(toolName)) return { policy: 'allow', rule: 'allowed-tools', layer: source };
    return decision;
  }

  /**
   * Tools pre-approved while a skill with `allowed-tools` is active (asked live on every verdict, as
   * the active skills change); undefined: none. `source` names the granter (`skill`, `command`):
   * each has its own matcher, shown as the verdict's layer.
   */
  setPreApproved(match: ((toolName: string) => boolean) | undefined, source = 'skill'): void {
    if (match) this.preApproved.set(source, match);
    else this.preApproved.delete(source);
  }

  /**
   * The same rules without skill pre-approval, for a sub-agent's calls: the person pre-approved a
   * skill's tools for the conversation that has the skill, not for a task the model hands on.
   */
  withoutPreApproval(): PolicyLookup {
    return {
      policyFor: (toolName) => this.explain(toolName, false).policy,
      verdictFor: (toolName) => this.verdictFor(toolName, false),
      approved: (toolName) => this.approved(toolName),
      allowAlways: (toolName) => this.allowAlways(toolName),
      denyAlways: (toolName) => this.denyAlways(toolName),
    };
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

  /**
   * Tells the store which (server, tool) now answers to `modelName`, and what it looks like: rules
   * written as `mcp:<server>/<tool>` then apply to it, and its pin is checked before an allow.
   */
  registerMcpTool(modelName: string, server: string, definition: ToolDefinition): void {
    this.mcpTools.set(modelName, { server, modelName, definition });
    this.pins?.preload();
    // Identity and annotations decide: a (re-)listing is decided afresh.
    this.decisions.delete(modelName);
  }

  /** The verdict for a call about to run: an allowed MCP tool must still match its pin. */
  verdictFor(toolName: string, preApproval = true): PolicyVerdict | Promise<PolicyVerdict> {
    const match = this.explain(toolName, preApproval);
    // An `ask` a person wrote (not the defaults'): asked even where the tool could run unasked.
    const configured = match.policy === 'ask' && match.layer !== 'default' && match.layer !== 'unknown';
    const tool = this.mcpTools.get(toolName);
    // Nothing to wait for without a pin to check: answered at once (the call path awaits no promise).
    if (!tool || !this.pins || match.policy === 'deny')
      return { policy: match.policy, ...(configured ? { configured } : {}) };
    return this.pinnedVerdict(toolName, tool, match, configured, this.pins);
  }

  private async pinnedVerdict(
    toolName: string,
    tool: PinnedTool,
    match: PolicyMatch,
    configured: boolean,
    pins: PinStore,
  ): Promise<PolicyVerdict> {
    // A rule naming the identity was written for this very tool; a name rule may have been meant
    // for whichever tool had the name when it was approved.
    const check = await pins.check(tool, { bindName: !isIdentityRule(match.rule) });
    const problem = pins.takeProblem() ?? this.takePinFailure();
    const verdict: PolicyVerdict = {
      policy: match.policy,
      ...(configured ? { configured } : {}),
      ...(problem ? { notice: problem } : {}),
    };
    if (check.state === 'same') return verdict;
    if (check.state === 'unpinned') {
      if (match.policy !== 'allow') return verdict;
      // First run under an allow: this is the definition the allow now stands for. It holds in
      // memory at once; the call does not wait for the file (flush() does, at shutdown).
      pins.pin([tool]).catch((error: unknown) => {
        this.pinFailure = `could not pin ${toolName} in ${pins.file}: ${(error as Error).message}`;
      });
      return verdict;
    }
    const reason = `definition changed since approved: ${check.changes.join('; ')}`;
    if (match.policy === 'ask') return { ...verdict, review: { reason } };
    return {
      ...verdict,
      policy: 'ask',
      review: {
        reason,
        refusal: `tool definition changed since it was approved: run geekagent mcp approve ${tool.server}`,
      },
    };
  }

  /** Resolves once every pin recorded so far is written (call before exiting). */
  async flush(): Promise<void> {
    await this.pins?.flush();
  }

  private takePinFailure(): string | undefined {
    const failure = this.pinFailure;
    this.pinFailure = undefined;
    return failure;
  }

  /** A person approved a call: an MCP tool's current definition becomes its pin. */
  async approved(toolName: string): Promise<void> {
    const tool = this.mcpTools.get(toolName);
    if (!tool || !this.pins) return;
    const check = await this.pins.check(tool, { bindName: true });
    if (check.state !== 'same') await this.pins.pin([tool]);
  }

  /**
   * An "always" answer: an exact `allow` in the person's own layer (`local`), then saved. For an MCP tool the rule
   * names its identity (`mcp:<server>/<tool>`), so another tool that later gets the same
   * model-facing name does not inherit it.
   */
  allowAlways(toolName: string): Promise<void> {
    return this.answerAlways(toolName, 'allow', this.persistAllow);
  }

  /** A "never" answer (an editor's "always reject"): an exact `deny` there, saved the same way. */
  denyAlways(toolName: string): Promise<void> {
    return this.answerAlways(toolName, 'deny', this.persistDeny);
  }

  private async answerAlways(
    toolName: string,
    policy: 'allow' | 'deny',
    persist: ((rule: string) => Promise<void>) | undefined,
  ): Promise<void> {
    const tool = this.mcpTools.get(toolName);
    const rule = tool ? mcpIdentityKey(tool.server, tool.definition.name) : toolName;
    const answers = this.answersLayer();
    answers.rules[rule] = policy;
    answers.compiled = new CompiledRules(answers.rules);
    this.decisions.clear();
    if (!persist) return;
    const saved = this.persisting.then(() => persist(rule));
    this.persisting = saved.catch(() => undefined);
    await saved;
  }

  private decide(toolName: string): PolicyMatch {
    const tool = this.mcpTools.get(toolName);
    // The identity first: of two equally specific rules in one layer, the one naming it wins.
    const subjects = tool ? [mcpIdentityKey(tool.server, tool.definition.name), toolName] : [toolName];
    let grant: (RuleHit & { layer: string }) | undefined;
    for (const layer of this.layers) {
      for (const subject of subjects) {
        const hits = layer.compiled.hits(subject);
        // A deny anywhere wins over every allow and ask, however specific.
        if (hits.deny) return { ...hits.deny, layer: layer.label };
        // Strictly more specific only: on a tie the stronger (earlier) layer keeps it.
        if (hits.grant && (!grant || compareSpecificity(hits.grant.rule, grant.rule) < 0))
          grant = { ...hits.grant, layer: layer.label };
      }
    }
    // Annotation rules rank below tool rules, except that a deny among them still beats any allow.
    const annotated = tool
      ? this.decideByAnnotations(subjects, declaredHints(tool.definition.annotations))
      : undefined;
    if (annotated?.policy === 'deny') return annotated;
    if (grant) return grant;
    if (annotated) return annotated;
    const fallback = this.compiledDefaults.best(toolName);
    if (fallback) return { ...fallback, layer: 'default' };
    return { policy: 'deny', rule: '', layer: 'unknown' };
  }

  private decideByAnnotations(
    subjects: string[],
    hints: ReturnType<typeof declaredHints>,
  ): PolicyMatch | undefined {
    if (hints.length === 0) return undefined;
    let grant: PolicyMatch | undefined;
    for (const layer of this.layers) {
      if (layer.annotations.empty) continue;
      const hits = layer.annotations.hits(subjects, hints);
      if (hits.deny) return { ...hits.deny, layer: layer.label };
      if (
        hits.grant &&
        (!grant || compareSpecificity(annotationPattern(hits.grant.rule), annotationPattern(grant.rule)) < 0)
      )
        grant = { ...hits.grant, layer: layer.label };
    }
    return grant;
  }

  private answersLayer(): StoredLayer {
    const existing = this.layers.find((layer) => layer.label === LOCAL_LAYER);
    if (existing) return existing;
    const created = storedLayer(LOCAL_LAYER, {});
    const cli = this.layers.findIndex((layer) => layer.label === 'cli');
    this.layers.splice(cli + 1, 0, created);
    return created;
  }
}

function storedLayer(
  label: string,
  rules: Record<string, Policy>,
  annotations: AnnotationRules = {},
): StoredLayer {
  return {
    label,
    rules,
    compiled: new CompiledRules(rules),
    annotations: new CompiledAnnotationRules(annotations),
  };
}
