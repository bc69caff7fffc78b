/**
 * What a provider is, as data: the shape of each folder's `spec.ts`. A spec holds the facts the
 * rest of GeekAgent asks about a model API — its id, the variables it reads and its defaults, the
 * model families it knows the context window and image input of, the images it takes — and the
 * loader of its SDK side. Specs import nothing at run time (this file and the specs sit below
 * config/ in the layer test): settings, provider kinds, image limits and the registry read them.
 */

/** What a model API takes as an image the person attaches, checked before a request is sent. */
export interface ImageLimits {
  /** MIME types the API accepts. */
  types: readonly string[];
  /** The largest image, in bytes of what is measured (`measure`). */
  maxBytes: number;
  /** Whether the limit counts the file's bytes or its base64 text (Anthropic counts the latter). */
  measure: 'file' | 'base64';
  /** The limit is for all of a request's images together (Gemini's inline data), not each. */
  perRequest?: boolean;
  /** Said in a note: where the limit comes from. */
  label: string;
}

/** The variables a provider reads, and what applies when they are unset. */
export interface ProviderEnv {
  /** The key's variable, named in the "not set" and HTTP 401 messages. */
  key: string;
  baseURL: string;
  model: string;
  defaultBaseURL: string;
  defaultModel: string;
}

export interface ProviderSpec {
  /** The `--provider` / GEEKAGENT_PROVIDER name. */
  readonly kind: string;
  readonly env: ProviderEnv;
  /**
   * Model families this API's vendor serves, by id pattern, with their context window. All specs'
   * tables are read in the list's order (first match wins), whichever provider a run uses: a
   * compatible server may serve another vendor's model.
   */
  readonly contextWindows: ReadonlyArray<readonly [RegExp, number]>;
  /** Model families known to take image input (any provider's, as above). */
  readonly mediaModels: readonly RegExp[];
  readonly imageLimits: ImageLimits;
  /**
   * The npm packages of its SDK and the bundle (dist/cli/lib/<bundle>.cjs) they are built into,
   * read by scripts/bundle.mjs; two providers on one SDK name the same bundle.
   */
  readonly sdk: { readonly bundle: string; readonly packages: readonly string[] };
  /**
   * Imports the folder's `request.ts` (the SDK side) and returns its requester class: a dynamic
   * import, so a run loads only the SDK of the API it talks to.
   */
  readonly load: () => Promise<new (init: never) => unknown>;
}
