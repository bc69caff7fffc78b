/**
 * Every tool schema the tests' real MCP servers list (the demo server, server-everything, the
 * fixture servers, listed over stdio with the MCP SDK client) plus hostile schemas, through each
 * provider's schema converter, checked against a strict checker of what that provider's API
 * accepts. A converter either gives a schema the checker passes or says the tool cannot be sent
 * (its error class); it never throws anything else, hangs, or overflows the stack.
 *
 * CONVERTERS is a table, a row per provider: Gemini rewrites schemas into its subset; Anthropic
 * and Responses take JSON Schema and only check (and repair) it. Each is judged by the checker its
 * fake API uses.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAllTools } from '../../../src/mcp/catalog.js';
import { normalizeToolSchema } from '../../../src/mcp/tool-schema.js';
import { toInputSchema } from '../../../src/providers/anthropic/schema.js';
import { SchemaConversionError, toGeminiParameters } from '../../../src/providers/gemini/schema.js';
import { checkParameters } from '../../../src/providers/responses/schema.js';
import { checkRequest as anthropicCheck } from '../../fixtures/fake-anthropic-checks.js';
import { checkRequest as responsesCheck } from '../../fixtures/fake-responses-rules.js';
import { declarationErrors } from '../../fixtures/gemini-schema-rules.js';
import { DEMO_SERVER, FIXTURE_SERVERS, REPO_ROOT } from '../../helpers/paths.js';
import { HOSTILE_SCHEMAS } from './hostile-schemas.js';

interface Converter {
  provider: string;
  convert: (schema: unknown) => unknown;
  /** The error a converter throws for a schema it cannot send (the tool is then left out). */
  refusal: new (
    ...args: never[]
  ) => Error;
  /** What the provider's API would say about the converted schema; [] when it accepts it. */
  check: (converted: unknown) => string[];
  /**
   * What the registry hands this provider first: MCP schemas arrive normalised
   * (mcp/tool-schema.ts), which Anthropic and Responses rely on; Gemini converts raw ones too.
   */
  prepare?: (schema: unknown) => unknown;
  /** The real servers' tools (beyond the listings as listed) this provider leaves out. */
  refusesReal: string[];
  /** Hostile schemas this provider decides otherwise than the table's `refused`, and why. */
  hostileOverrides?: Record<string, boolean>;
}

/** Anthropic's and Responses' checks answer a reason string instead of throwing. */
class Refused extends Error {}
const throwing =
  <T>(check: (schema: never) => T | string) =>
  (schema: unknown): T => {
    const result = check(schema as never);
    if (typeof result === 'string') throw new Refused(result);
    return result;
  };
const noSignatures = { thinking: () => false, redacted: () => false };
const normalized = (schema: unknown): unknown => {
  const result = normalizeToolSchema(schema);
  if (!result.ok) throw new Refused(result.reason);
  return result.schema;
};

const CONVERTERS: Converter[] = [
  {
    provider: 'gemini',
    convert: toGeminiParameters,
    refusal: SchemaConversionError,
    check: (parameters) => declarationErrors({ name: 'tool', parameters }, 'function_declarations[0]'),
    refusesReal: ['gemini-odd-schemas/wide_form'],
  },
  {
    provider: 'anthropic',
    prepare: normalized,
    convert: throwing(toInputSchema),
    refusal: Refused,
    check: (input_schema) => {
      const body = {
        model: 'claude',
        max_tokens: 1024,
        tools: [{ name: 'tool', input_schema }],
        messages: [],
      };
      const problem = anthropicCheck(body, noSignatures);
      return problem === undefined || problem.startsWith('messages') ? [] : [problem];
    },
    refusesReal: [],
    hostileOverrides: {
      // Normalised first: MCP accepts these as an object of parameters.
      'top level: anyOf of objects': false,
      'top level: null': false,
      // Refused as one tool rather than overflow the stack serialising the request.
      '10,000-deep object nesting': true,
      '10,000-deep array nesting': true,
      '10,000-deep anyOf nesting': true,
      // Not valid JSON Schema (a type named "date", an empty anyOf): the API would refuse it.
      'type arrays': true,
      combinators: true,
    },
  },
  {
    provider: 'openai-responses',
    prepare: normalized,
    convert: throwing(checkParameters),
    refusal: Refused,
    check: (parameters) => {
      const body = { model: 'gpt-4.1', input: [], tools: [{ type: 'function', name: 'tool', parameters }] };
      const problem = responsesCheck(body, {
        signer: undefined as never,
        reasoningOfCall: new Map(),
        phasesOfText: new Map(),
      });
      return problem === undefined ? [] : [problem.message];
    },
    refusesReal: [],
    hostileOverrides: {
      // Normalised first: MCP accepts these as an object of parameters.
      'top level: anyOf of objects': false,
      'top level: null': false,
      // Refused as one tool rather than overflow the stack serialising the request.
      '10,000-deep object nesting': true,
      '10,000-deep array nesting': true,
      '10,000-deep anyOf nesting': true,
      // A top-level `not`, which the Responses API refuses.
      'keywords Gemini refuses': true,
    },
  },
];

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
/** The fixture servers that list tools (the others exit, hang or never start, on purpose). */
const FIXTURES = [
  'catalog',
  'changing',
  'concurrency',
  'content',
  'env',
  'escapes',
  'flood',
  'garbage',
  'gemini-odd-schemas',
  'hang',
  'many-tools',
  'names',
  'notify-flood',
  'roots',
  'server-requests',
  'stubborn',
];
const SERVERS: Array<[string, string[]]> = [
  ['demo', [DEMO_SERVER]],
  ['everything', [EVERYTHING, 'stdio']],
  ...FIXTURES.map((name): [string, string[]] => [name, [path.join(FIXTURE_SERVERS, `${name}.mjs`)]]),
];

interface Listed {
  label: string;
  schema: unknown;
}

const clients: Client[] = [];
const listed: Listed[] = [];

beforeAll(async () => {
  await Promise.all(
    SERVERS.map(async ([server, args]) => {
      const client = new Client({ name: 'schema-test', version: '1.0.0' });
      clients.push(client);
      await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
      for (const tool of (await listAllTools(client, 15_000)).tools) {
        listed.push({ label: `${server}/${tool.name} (as listed)`, schema: tool.inputSchema });
        // What the agent really sends: the MCP layer's normalised schema.
        const normalized = normalizeToolSchema(tool.inputSchema);
        if (normalized.ok) listed.push({ label: `${server}/${tool.name}`, schema: normalized.schema });
      }
    }),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
});

/** Converted and accepted, or refused with the converter's own error: anything else is a failure. */
function outcome(converter: Converter, schema: unknown): { errors: string[]; refused?: string } {
  let converted: unknown;
  try {
    converted = converter.convert(converter.prepare ? converter.prepare(schema) : schema);
  } catch (error) {
    if (error instanceof converter.refusal) return { errors: [], refused: error.message };
    return { errors: [`threw ${String(error)}`] };
  }
  return { errors: converter.check(JSON.parse(JSON.stringify(converted))) };
}

describe.each(CONVERTERS)('$provider tool schemas', (converter) => {
  it('lists the real servers’ tools (the test has something to check)', () => {
    expect(listed.length).toBeGreaterThan(250);
    expect(listed.some((tool) => tool.label.startsWith('everything/'))).toBe(true);
  });

  it('converts every real server’s tool schema into one the API accepts', () => {
    const failures: string[] = [];
    const refused: string[] = [];
    for (const tool of listed) {
      const result = outcome(converter, tool.schema);
      failures.push(...result.errors.map((error) => `${tool.label}: ${error}`));
      if (result.refused) refused.push(tool.label);
    }
    expect(failures).toEqual([]);
    // Refused: only what no provider can take as an object of parameters, and the 6,000-field form.
    expect(refused.filter((label) => !label.endsWith('(as listed)'))).toEqual(converter.refusesReal);
  });

  it.each(HOSTILE_SCHEMAS)('hostile: $name', ({ name, schema, refused }) => {
    const result = outcome(converter, schema);
    expect(result.errors).toEqual([]);
    expect(result.refused !== undefined).toBe(converter.hostileOverrides?.[name] ?? refused);
  });
});
