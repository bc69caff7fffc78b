// First-request tool bytes with tool search (deferral) vs without: the built CLI (`-p hi`) with 16
// servers serving a realistic tool set (test/fixtures/mcp/catalog.mjs over
// test/fixtures/search/tools-popular.json: 183 tools of GitHub, Playwright, Notion, Sentry… with a
// schema synthesized from each tool's parameter names). A tiny in-bench model records the first
// chat request; bytes = its `tools` JSON plus, with deferral, the system prompt's deferred-tools
// section (the name list is part of what deferral costs). The row compares what MCP adds (its
// tools, or tool_search + the name list); the notes give whole `tools` arrays with the built-ins. `GEEKAGENT_TOOL_SEARCH=off` vs `auto`.
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { CLI, cliEnv, ROOT, spawnRun, tempDir } from './lib.mjs';

const CATALOG = path.join(ROOT, 'test', 'fixtures', 'mcp', 'catalog.mjs');
const TOOLS = path.join(ROOT, 'test', 'fixtures', 'search', 'tools-popular.json');
const CHUNK = { choices: [{ delta: { content: 'ok' }, finish_reason: 'stop', index: 0 }] };

async function startModel() {
  const bodies = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url.endsWith('/chat/completions')) {
        bodies.push(body);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify(CHUNK)}\n\ndata: [DONE]\n\n`);
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    bodies,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function makeProject() {
  const base = await tempDir('toolbytes');
  const dir = path.join(base, 'project');
  const home = path.join(base, 'home');
  await mkdir(path.join(dir, '.geekagent'), { recursive: true });
  await mkdir(home, { recursive: true });
  const servers = [...new Set(JSON.parse(readFileSync(TOOLS, 'utf8')).map((tool) => tool.server))];
  const mcpServers = Object.fromEntries(
    servers.map((name) => [
      name.replace(/[^a-z0-9]/gi, ''),
      { command: process.execPath, args: [CATALOG], env: { CATALOG_SERVER: name } },
    ]),
  );
  await writeFile(path.join(dir, '.geekagent', 'mcp.json'), JSON.stringify({ mcpServers }, null, 2));
  return { dir, home, servers: servers.length };
}

async function firstRequest(model, project, mode) {
  const before = model.bodies.length;
  const run = spawnRun(process.execPath, [CLI, '--trust', '-p', 'hi'], {
    cwd: project.dir,
    env: cliEnv(project, model.url, {
      GEEKAGENT_HOME: path.join(project.home, '.geekagent'),
      GEEKAGENT_TOOL_SEARCH: mode,
    }),
  });
  const code = await run.exited;
  run.done();
  if (code !== 0 || model.bodies.length === before)
    throw new Error(`CLI run (${mode}) failed with ${code}:\n${run.output()}`);
  const body = JSON.parse(model.bodies[before]);
  const tools = body.tools ?? [];
  const system = String(body.messages[0]?.content ?? '');
  const section = system.slice(Math.max(0, system.indexOf('Deferred tools (')));
  // What MCP costs: its tools' definitions, and with deferral tool_search (built-ins are in both).
  const mcp = tools.filter((tool) => /^(mcp_|tool_search$)/.test(tool.function?.name ?? ''));
  return {
    toolBytes: JSON.stringify(tools).length,
    mcpBytes: mcp.length === 0 ? 0 : JSON.stringify(mcp).length,
    sectionBytes: system.includes('Deferred tools (') ? section.length : 0,
    mcpTools: tools.filter((tool) => tool.function?.name?.startsWith('mcp_')).length,
    searchTool: tools.some((tool) => tool.function?.name === 'tool_search'),
  };
}

/** { all, deferred } first-request bytes and what was in them. */
export async function benchToolBytes() {
  const project = await makeProject();
  const model = await startModel();
  try {
    const all = await firstRequest(model, project, 'off');
    const deferred = await firstRequest(model, project, 'auto');
    if (!deferred.searchTool) throw new Error('auto did not defer: tool_search missing from the request');
    return { all, deferred, servers: project.servers };
  } finally {
    await model.close();
  }
}
