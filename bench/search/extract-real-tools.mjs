// Regenerates test/fixtures/search/tools-real.json: the tool definitions of real MCP servers found
// locally — @modelcontextprotocol/server-everything and GeekAgent's demo server, listed over stdio
// with the SDK client; the SDK's example servers, read from their source (they only run as HTTP
// servers). Kept as a fixture so quality runs need no server.   node bench/search/extract-real-tools.mjs
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NM = path.join(ROOT, 'node_modules');

async function listStdio(server, command, args) {
  const client = new Client({ name: 'extract', version: '1' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  try {
    const { tools } = await client.listTools();
    return tools.map((t) => ({
      server,
      name: t.name,
      description: t.description ?? '',
      params: Object.keys(t.inputSchema?.properties ?? {}),
    }));
  } finally {
    await client.close();
  }
}

/** `registerTool('name', { title?, description, inputSchema: { a: z…, b: z… } }` in example sources. */
function fromSdkExamples() {
  const dir = path.join(NM, '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'examples', 'server');
  const tools = new Map();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const src = readFileSync(path.join(dir, file), 'utf8');
    const re = /registerTool\(\s*'([^']+)',\s*\{([\s\S]*?)\}\s*,\s*async/g;
    for (const m of src.matchAll(re)) {
      const body = m[2];
      const description = /description:\s*'([^']*)'/.exec(body)?.[1] ?? '';
      const schema = (/inputSchema:\s*\{([\s\S]*)/.exec(body)?.[1] ?? '').split('outputSchema')[0];
      const params = [...schema.matchAll(/^\s*([A-Za-z_][\w]*):\s*z\./gm)].map((p) => p[1]);
      if (!tools.has(m[1])) tools.set(m[1], { server: 'sdk-examples', name: m[1], description, params });
    }
  }
  return [...tools.values()];
}

const tools = [
  ...(await listStdio('everything', process.execPath, [
    path.join(NM, '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'),
    'stdio',
  ])),
  ...(await listStdio('demo', process.execPath, [path.join(ROOT, 'examples', 'demo-server.mjs')])),
  ...fromSdkExamples(),
];
const out = path.join(ROOT, 'test', 'fixtures', 'search', 'tools-real.json');
writeFileSync(out, `${JSON.stringify(tools, null, 2)}\n`);
console.log(`${tools.length} tools → ${path.relative(ROOT, out)}`);
