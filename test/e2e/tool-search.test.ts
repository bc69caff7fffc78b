/**
 * Tool search through the built CLI in print mode, with the catalog fixture (~180 realistic tools
 * of popular servers, padded to 300): the MCP definitions are deferred (the first request carries
 * `tool_search` and a name list instead), a paraphrased search finds the right tool, which is
 * declared from the next request on at the end of the tool list (the list before it and the system
 * prompt stay byte-identical) and called; a deferred tool called by name anyway runs and is sent
 * from then on, last; the loaded set survives `--continue`; `GEEKAGENT_TOOL_SEARCH=off` sends
 * everything; `/mcp` reports.
 */
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { cliFixture, FIXTURE_SERVERS, parseJsonOutput } from './harness.js';

const fx = cliFixture();

beforeEach(async () => {
  await fx.project.mcpServers({
    cat: {
      command: process.execPath,
      args: [path.join(FIXTURE_SERVERS, 'catalog.mjs')],
      env: { TOOL_COUNT: '300' },
    },
  });
});

const SCREENSHOT = 'mcp_cat_chrome-devtools_take_screenshot';

function toolNames(request: RecordedRequest): string[] {
  return (request.body.tools ?? []).map((tool) => (tool.function as { name: string }).name);
}

function systemPrompt(request: RecordedRequest): string {
  return String(request.body.messages[0]?.content);
}

function toolOf(request: RecordedRequest, name: string) {
  return request.body.tools?.find((tool) => (tool.function as { name: string }).name === name)?.function as
    | { parameters: { properties: Record<string, unknown> } }
    | undefined;
}

async function print(args: string[], env: Record<string, string> = {}) {
  const run = await fx.run(['-p', 'go', '--output-format', 'json', '--allow', 'mcp_cat_*', ...args], { env });
  expect(run.code, run.stderr).toBe(0);
  return parseJsonOutput(run);
}

describe('tool search', () => {
  it('defers 300 MCP tools; a paraphrased search finds the tool, declared last from the next round on and called; the system prompt does not change', async () => {
    fx.fake.push(
      { toolCalls: [{ name: 'tool_search', arguments: '{"query":"take a picture of the web page"}' }] },
      { toolCalls: [{ name: SCREENSHOT, arguments: '{"format":"png"}' }] },
      { text: 'done' },
    );
    const output = await print([]);

    const first = fx.fake.requests[0]!;
    const names = toolNames(first);
    expect(names).toContain('tool_search');
    expect(names).toContain('read');
    expect(names.filter((name) => name.startsWith('mcp_cat_'))).toEqual([]);
    expect(systemPrompt(first)).toContain('Deferred tools (300)');
    expect(systemPrompt(first)).toContain('mcp_cat_: ');
    expect(systemPrompt(first)).toContain('chrome-devtools_take_screenshot');

    const [search, call] = output.tool_calls;
    expect(search?.decision).toBe('allow');
    const lines = search!.result.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${SCREENSHOT} — `));
    expect(lines.length).toBeLessThanOrEqual(6);
    expect(call).toMatchObject({ name: SCREENSHOT, is_error: false });
    expect(call?.result).toBe('chrome-devtools_take_screenshot: done {"format":"png"}');

    // Declared after every other tool, with its schema; the list before it and the prompt hold.
    const firstTools = first.body.tools!;
    for (const request of fx.fake.requests.slice(1)) {
      expect(JSON.stringify(request.body.tools!.slice(0, firstTools.length))).toBe(
        JSON.stringify(firstTools),
      );
      expect(systemPrompt(request)).toBe(systemPrompt(first));
    }
    expect(toolNames(fx.fake.requests[1]!)[firstTools.length]).toBe(SCREENSHOT);
    expect(Object.keys(toolOf(fx.fake.requests[1]!, SCREENSHOT)!.parameters.properties)).toContain('format');
  });

  it('runs a deferred tool called by name without a search, and sends it from then on, last', async () => {
    fx.fake.push(
      {
        // A model that names a tool it was not given (the prompt lists the names).
        undeclared: true,
        toolCalls: [{ name: 'mcp_cat_github_get_issue', arguments: '{"owner":"octo","issue_number":"7"}' }],
      },
      { text: 'done' },
    );
    const output = await print([]);
    expect(output.tool_calls[0]).toMatchObject({
      name: 'mcp_cat_github_get_issue',
      decision: 'allow',
      is_error: false,
      result: 'github_get_issue: done {"owner":"octo","issue_number":"7"}',
    });
    expect(toolNames(fx.fake.requests[0]!)).not.toContain('mcp_cat_github_get_issue');
    // Appended: the tool list before it is the first request's, byte for byte.
    const before = fx.fake.requests[0]!.body.tools!;
    const after = fx.fake.requests[1]!.body.tools!;
    expect(after.at(-1)).toMatchObject({ function: { name: 'mcp_cat_github_get_issue' } });
    expect(JSON.stringify(after.slice(0, -1))).toBe(JSON.stringify(before));
  });

  it('keeps the loaded tools after --continue: found ones and one called by name, in load order', async () => {
    fx.fake.push(
      {
        undeclared: true,
        toolCalls: [
          { name: 'tool_search', arguments: '{"query":"take a picture of the web page","limit":1}' },
          { name: 'mcp_cat_github_get_issue', arguments: '{"owner":"octo","issue_number":"7"}' },
        ],
      },
      { text: 'found it' },
      { text: 'again' },
    );
    await print([]);
    expect(toolNames(fx.fake.requests[1]!).filter((name) => name.startsWith('mcp_cat_'))).toEqual([
      SCREENSHOT,
      'mcp_cat_github_get_issue',
    ]);
    await print(['--continue']);
    expect(JSON.stringify(fx.fake.requests[2]!.body.tools)).toBe(
      JSON.stringify(fx.fake.requests[1]!.body.tools),
    );
  });

  it('sends every tool with GEEKAGENT_TOOL_SEARCH=off, and none deferred when they are few', async () => {
    fx.fake.push({ text: 'done' });
    await print([], { GEEKAGENT_TOOL_SEARCH: 'off' });
    const names = toolNames(fx.fake.requests[0]!);
    expect(names.filter((name) => name.startsWith('mcp_cat_')).length).toBe(300);
    expect(names).not.toContain('tool_search');
    expect(systemPrompt(fx.fake.requests[0]!)).not.toContain('Deferred tools');

    await fx.project.mcpServers({
      cat: {
        command: process.execPath,
        args: [path.join(FIXTURE_SERVERS, 'catalog.mjs')],
        env: { CATALOG_SERVER: 'time' },
      },
    });
    fx.fake.push({ text: 'done' });
    await print([]);
    const few = toolNames(fx.fake.requests[1]!);
    expect(few).toContain('mcp_cat_get_current_time');
    expect(few).not.toContain('tool_search');

    // `on` defers even a small set.
    fx.fake.push({ text: 'done' });
    await print([], { GEEKAGENT_TOOL_SEARCH: 'on' });
    expect(toolNames(fx.fake.requests[2]!)).toContain('tool_search');
    expect(toolNames(fx.fake.requests[2]!)).not.toContain('mcp_cat_get_current_time');
  });

  it("defers each server's resource helpers like its tools; tool_search finds them", async () => {
    const marker = path.join(fx.project.dir, 'started.txt');
    const server = {
      command: process.execPath,
      args: [path.join(FIXTURE_SERVERS, 'resources-marker.mjs'), marker],
    };
    await fx.project.mcpServers({ notes: server, wiki: server, docs: server });
    const LIST = 'mcp_wiki_list_resources';
    fx.fake.push(
      {
        toolCalls: [{ name: 'tool_search', arguments: '{"query":"list the resources of the wiki server"}' }],
      },
      { toolCalls: [{ name: LIST, arguments: '{}' }] },
      { text: 'done' },
    );
    const output = await print(['--allow', 'mcp_wiki_*'], { GEEKAGENT_TOOL_SEARCH: 'on' });

    const first = fx.fake.requests[0]!;
    expect(toolNames(first).filter((name) => name.startsWith('mcp_'))).toEqual([]);
    // Named in the prompt's list, under their server, as its own tools are.
    for (const name of ['notes', 'wiki', 'docs'])
      expect(systemPrompt(first)).toContain(`mcp_${name}_: lookup, list_resources, read_resource`);
    const [search, list] = output.tool_calls;
    expect(search?.result.split('\n')[0]).toMatch(new RegExp(`^${LIST} — List the resources`));
    expect(list).toMatchObject({ name: LIST, is_error: false });
    expect(list?.result).toContain('notes://readme — readme');
  });

  it('/mcp says how many tools are deferred and the tokens saved', async () => {
    const run = await fx.run(['-p', '/mcp']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /tool search: 300 of 300 MCP tools deferred, ≈ [\d.]+k tokens saved per request/,
    );
    const off = await fx.run(['-p', '/mcp'], { env: { GEEKAGENT_TOOL_SEARCH: 'off' } });
    expect(off.stdout).toContain('tool search: off (GEEKAGENT_TOOL_SEARCH=off)');
  });
});
