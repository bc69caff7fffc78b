/**
 * A tool found by `tool_search` is declared to the API from the next request on, on every
 * provider: the fakes refuse a scripted call to a function the request does not declare, as the
 * real APIs only let the model call declared tools. Declared at the end of the tool list, so the
 * list before it stays byte-identical to the request before the search.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { startFakeGemini } from '../fixtures/fake-gemini.js';
import { startFakeModel } from '../fixtures/fake-model.js';
import { startFakeResponses } from '../fixtures/fake-responses.js';
import { createProject, FIXTURE_SERVERS, type Project, parseJsonOutput, runCli } from './harness.js';

const SCREENSHOT = 'mcp_cat_chrome-devtools_take_screenshot';
const SCRIPT = [
  { toolCalls: [{ name: 'tool_search', arguments: '{"query":"take a picture of the web page"}' }] },
  { toolCalls: [{ name: SCREENSHOT, arguments: '{"format":"png"}' }] },
  { text: 'done' },
];

type Tools = Array<Record<string, unknown>> | undefined;
interface Provider {
  name: string;
  start(): Promise<{
    url: string;
    tools(index: number): Tools;
    /** Prompt-cache tokens the fake read for request `index`, where it reports them. */
    cacheRead?(index: number): number | undefined;
    close(): Promise<void>;
  }>;
  env(url: string): Record<string, string>;
  /** A declared tool's name in this API's shape. */
  nameOf(tool: Record<string, unknown>): string;
}

const PROVIDERS: Provider[] = [
  {
    name: 'openai (Chat Completions)',
    async start() {
      const fake = await startFakeModel(SCRIPT);
      return { url: fake.url, tools: (i) => fake.requests[i]?.body.tools, close: fake.close };
    },
    env: (url) => ({ OPENAI_BASE_URL: url }),
    nameOf: (tool) => String((tool.function as { name: string }).name),
  },
  {
    name: 'anthropic',
    async start() {
      const fake = await startFakeAnthropic(SCRIPT);
      return {
        url: fake.url,
        tools: (i) => fake.requests[i]?.body.tools,
        cacheRead: (i) => fake.requests[i]?.usage?.cache_read_input_tokens,
        close: fake.close,
      };
    },
    env: (url) => ({
      GEEKAGENT_PROVIDER: 'anthropic',
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
      ANTHROPIC_MODEL: 'claude-sonnet-4-5',
    }),
    nameOf: (tool) => String(tool.name),
  },
  {
    name: 'gemini',
    async start() {
      const fake = await startFakeGemini(SCRIPT);
      return {
        url: fake.url,
        // One tool per function declaration, so the checks read the same as the others'.
        tools: (i) =>
          (fake.requests[i]?.body.tools ?? []).flatMap(
            (tool) => (tool.functionDeclarations ?? []) as Array<Record<string, unknown>>,
          ),
        close: fake.close,
      };
    },
    env: (url) => ({
      GEEKAGENT_PROVIDER: 'gemini',
      GOOGLE_GEMINI_BASE_URL: url,
      GEMINI_API_KEY: 'test-key',
      GEMINI_MODEL: 'gemini-3-pro-preview',
    }),
    nameOf: (tool) => String(tool.name),
  },
  {
    name: 'openai-responses',
    async start() {
      const fake = await startFakeResponses(SCRIPT);
      return { url: fake.url, tools: (i) => fake.requests[i]?.body.tools, close: fake.close };
    },
    env: (url) => ({
      GEEKAGENT_PROVIDER: 'openai-responses',
      OPENAI_MODEL: 'gpt-5-mini',
      OPENAI_BASE_URL: url,
    }),
    nameOf: (tool) => String(tool.name),
  },
];

let project: Project;
beforeEach(async () => {
  project = await createProject();
  await project.mcpServers({
    cat: {
      command: process.execPath,
      args: [path.join(FIXTURE_SERVERS, 'catalog.mjs')],
      env: { TOOL_COUNT: '300' },
    },
  });
});
afterEach(async () => {
  await project.cleanup();
});

describe('a tool found by tool_search is declared', () => {
  for (const provider of PROVIDERS) {
    it(`${provider.name}: the next request declares it, last, and the model's call to it runs`, async () => {
      const fake = await provider.start();
      try {
        const run = await runCli(['-p', 'go', '--output-format', 'json', '--allow', 'mcp_cat_*'], {
          project,
          // On: the models' windows differ, and a 1M window would not defer these 300 tools.
          env: { ...provider.env(fake.url), GEEKAGENT_TOOL_SEARCH: 'on' },
        });
        expect(run.code, run.stderr).toBe(0);
        const output = parseJsonOutput(run);
        expect(output.tool_calls[1]).toMatchObject({ name: SCREENSHOT, is_error: false });
        expect(output.tool_calls[1]?.result).toBe('chrome-devtools_take_screenshot: done {"format":"png"}');

        const before = fake.tools(0) ?? [];
        const after = fake.tools(1) ?? [];
        expect(before.map(provider.nameOf)).not.toContain(SCREENSHOT);
        // Appended in the search's order (best first): the list before them is the first request's, byte for byte.
        const found = output.tool_calls[0]!.result.split('\n').flatMap(
          (line) => /^(\S+) \u2014 /.exec(line)?.[1] ?? [],
        );
        expect(found[0]).toBe(SCREENSHOT);
        expect(after.slice(before.length).map(provider.nameOf)).toEqual(found);
        expect(JSON.stringify(after.slice(0, before.length))).toBe(JSON.stringify(before));
        // Anthropic caches the tools first: those before the found ones still read from the cache.
        if (fake.cacheRead) expect(fake.cacheRead(1)).toBeGreaterThan(0);
        // Declared for the rest of the session: the answer's request still has it.
        expect((fake.tools(2) ?? []).map(provider.nameOf)).toContain(SCREENSHOT);
      } finally {
        await fake.close();
      }
    });
  }
});
