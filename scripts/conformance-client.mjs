#!/usr/bin/env node
// Conformance driver: `node scripts/conformance-client.mjs <server-url>` as the client command of
// @modelcontextprotocol/conformance. A thin layer over GeekAgent's own MCP code (dist/): the
// server is declared in a temp project's .geekagent/mcp.json exactly as a user would, then
// connected by the McpManager (Streamable HTTP/SSE, OAuth, elicitation) and every tool is called
// through the registry's MCP adapter. Scenario credentials arrive in MCP_CONFORMANCE_CONTEXT.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMcpManager } from '../dist/app/create-mcp.js';
import { createToolSet } from '../dist/extensions/tool-set.js';
import { followRedirectPrompter } from '../dist/mcp/auth/prompters.js';
import { nonInteractiveElicitation, refuseSampling } from '../dist/mcp/client-features.js';
import { ProcessGroupTracker } from '../dist/process/group-tracker.js';
import { ToolRegistry } from '../dist/tools/registry.js';
import { RootSandbox } from '../dist/workspace/root-sandbox.js';

// The URL the conformance suite's authorization server accepts as a client ID metadata document.
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

/** The `oauth` block a user would write for this scenario's credentials. */
function oauthSettings() {
  if (context.idp_token_endpoint) {
    return {
      grant: 'cross_app_access',
      clientId: context.client_id,
      clientSecret: context.client_secret,
      idp: {
        tokenEndpoint: context.idp_token_endpoint,
        clientId: context.idp_client_id,
        idToken: context.idp_id_token,
      },
    };
  }
  if (context.private_key_pem) {
    return {
      grant: 'client_credentials',
      clientId: context.client_id,
      privateKey: context.private_key_pem,
      signingAlgorithm: context.signing_algorithm,
    };
  }
  if (scenario.startsWith('auth/client-credentials')) {
    return { grant: 'client_credentials', clientId: context.client_id, clientSecret: context.client_secret };
  }
  if (context.client_id) return { clientId: context.client_id, clientSecret: context.client_secret };
  return { clientMetadataUrl: CLIENT_METADATA_URL };
}

/** Arguments a tool's schema accepts: a plausible value per property. */
function sampleArguments(schema) {
  const args = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    if (property.default !== undefined) args[name] = property.default;
    else if (property.enum) args[name] = property.enum[0];
    else if (type === 'number' || type === 'integer') args[name] = Object.keys(args).length + 2;
    else if (type === 'boolean') args[name] = true;
    else if (type === 'array') args[name] = [];
    else if (type === 'object') args[name] = {};
    else args[name] = 'conformance';
  }
  return args;
}

const base = mkdtempSync(path.join(os.tmpdir(), 'geekagent-conformance-'));
const projectDir = path.join(base, 'project');
mkdirSync(path.join(projectDir, '.geekagent'), { recursive: true });
writeFileSync(
  path.join(projectDir, '.geekagent', 'mcp.json'),
  JSON.stringify({
    mcpServers: { conformance: { type: 'http', url: serverUrl, timeout: 20000, oauth: oauthSettings() } },
  }),
);

const tracker = new ProcessGroupTracker({ reaper: false });
const registry = new ToolRegistry();
const manager = await createMcpManager({
  projectDir,
  homeDir: path.join(base, 'home'),
  userDir: path.join(base, 'home', '.geekagent'),
  // The driver wrote this project file itself.
  projectTrusted: true,
  env: process.env,
  tracker,
  acceptsMedia: true,
  // The suite's authorization server approves at once and redirects with the code.
  prompter: followRedirectPrompter,
  features: {
    elicitation: nonInteractiveElicitation(true),
    sampling: refuseSampling,
    roots: () => [{ uri: `file://${projectDir}`, name: 'project' }],
  },
});

// The servers' tools reach the registry through the seam's tool set, as in the agent.
manager.attach(createToolSet({ registry, policies: { ensureToolPolicy: () => undefined } }, 'mcp'));

let code = 0;
try {
  manager.start();
  await manager.whenSettled();
  const status = manager.status('conformance');
  if (status?.state.state !== 'connected') {
    console.error(`geekagent conformance: not connected: ${JSON.stringify(status?.state)}`);
    code = 1;
  } else {
    const ctx = {
      signal: new AbortController().signal,
      sandbox: new RootSandbox(projectDir),
      undo: { record: async () => {} },
      env: {},
    };
    for (const tool of registry.list()) {
      try {
        const output = await tool.run(sampleArguments(tool.parameters), ctx);
        console.log(
          `${tool.name}: ${typeof output === 'string' ? output.slice(0, 200) : JSON.stringify(output).slice(0, 200)}`,
        );
      } catch (error) {
        console.error(`${tool.name} failed: ${error.message}`);
        code = 1;
      }
    }
  }
} finally {
  await manager.shutdown();
  tracker.dispose();
  rmSync(base, { recursive: true, force: true });
}
process.exit(code);
