/**
 * The library's in-process MCP servers (`mcpServers: { name: { type: 'sdk', instance } }`): an MCP
 * SDK v2 `McpServer` built in the test process is connected in memory, its tool is offered to the
 * model under the usual MCP name, `canUseTool` is asked for it as for any server's tool, its result
 * reaches the model, and the run ends with the server disconnected (and nothing cached).
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { query } from '../../src/library/index.js';
import type { QueryMessage } from '../../src/library/types.js';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, type Project, testEnv } from './harness.js';

async function collect(messages: AsyncIterable<QueryMessage>): Promise<QueryMessage[]> {
  const all: QueryMessage[] = [];
  for await (const message of messages) all.push(message);
  return all;
}

/** An in-process server with one tool that records its calls. */
function weatherServer(calls: string[]): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool(
    'forecast',
    { description: 'The forecast for a city', inputSchema: z.object({ city: z.string() }) },
    async ({ city }) => {
      calls.push(city);
      return { content: [{ type: 'text', text: `sunny in ${city}` }] };
    },
  );
  return server;
}

describe('query() with an in-process MCP server', () => {
  let project: Project;
  let fake: FakeModel;
  const env = () => testEnv({ project, modelUrl: fake.url });

  beforeEach(async () => {
    project = await createProject();
    fake = await startFakeModel();
  });
  afterEach(async () => {
    await fake.close();
    await project.cleanup();
  });

  it("offers the server's tool, asks canUseTool, returns its result to the model and disconnects it", async () => {
    const calls: string[] = [];
    const server = weatherServer(calls);
    fake.push(
      (request) => {
        // The tool is declared under the usual MCP name: the fake refuses undeclared calls.
        expect(request.body.tools?.map((tool) => (tool.function as { name: string }).name)).toContain(
          'mcp_weather_forecast',
        );
        return { toolCalls: [{ name: 'mcp_weather_forecast', arguments: JSON.stringify({ city: 'Oslo' }) }] };
      },
      { text: 'It is sunny in Oslo.' },
    );
    const asked: Array<[string, unknown]> = [];
    const messages = await collect(
      query({
        prompt: 'weather in Oslo?',
        options: {
          cwd: project.dir,
          env: env(),
          mcpServers: { weather: { type: 'sdk', name: 'weather', instance: server } },
          canUseTool: (name, input) => {
            asked.push([name, input]);
            return { behavior: 'allow' };
          },
        },
      }),
    );

    expect(asked).toEqual([['mcp_weather_forecast', { city: 'Oslo' }]]);
    expect(calls).toEqual(['Oslo']);
    const init = messages[0] as Record<string, unknown>;
    expect(init).toMatchObject({ type: 'system', subtype: 'init' });
    expect(JSON.stringify(init.mcp_servers)).toContain('weather');
    // The tool's result is in the model's next request.
    const second = JSON.stringify(fake.requests[1]?.body.messages);
    expect(second).toContain('sunny in Oslo');
    expect(messages.at(-1)).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'It is sunny in Oslo.',
    });
    // The run closed its end of the pair: the server object is free again, and nothing was cached.
    expect(server.isConnected()).toBe(false);
    const cacheDir = path.join(env().GEEKAGENT_HOME ?? '', 'cache');
    const cached = await readdir(cacheDir).catch(() => [] as string[]);
    expect(cached.filter((file) => file.startsWith('mcp-weather'))).toEqual([]);
  });

  it('denies the tool when canUseTool does, and the server is not called', async () => {
    const calls: string[] = [];
    const server = weatherServer(calls);
    fake.push(
      { toolCalls: [{ name: 'mcp_weather_forecast', arguments: JSON.stringify({ city: 'Rome' }) }] },
      { text: 'refused' },
    );
    const messages = await collect(
      query({
        prompt: 'weather in Rome?',
        options: {
          cwd: project.dir,
          env: env(),
          mcpServers: { weather: { type: 'sdk', instance: server } },
          canUseTool: () => ({ behavior: 'deny', message: 'no weather today' }),
        },
      }),
    );
    expect(calls).toEqual([]);
    expect(messages.at(-1)).toMatchObject({
      type: 'result',
      permission_denials: [{ tool_name: 'mcp_weather_forecast' }],
    });
    expect(JSON.stringify(fake.requests[1]?.body.messages)).toContain('no weather today');
    expect(server.isConnected()).toBe(false);
  });

  it('refuses an sdk entry without an instance, naming the entry', async () => {
    const run = query({
      prompt: 'hi',
      options: {
        cwd: project.dir,
        env: env(),
        mcpServers: { broken: { type: 'sdk', instance: undefined as never } },
      },
    });
    await expect(collect(run)).rejects.toThrow(/mcpServers\.broken.*instance/);
  });
});
