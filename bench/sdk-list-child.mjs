// The baseline of bench row S4: what `geekagent mcp list` does for one stdio server, with the plain
// SDK and nothing else — connect (initialize), tools/list, print the names, close. argv[2]: the
// server script (run with this node).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [process.argv[2]],
  stderr: 'pipe',
});
const client = new Client({ name: 'sdk-baseline', version: '1.0.0' }, { capabilities: {} });
await client.connect(transport);
const { tools } = await client.listTools();
process.stdout.write(
  `demo: connected (${tools.length} tools)\n${tools.map((t) => `  ${t.name}`).join('\n')}\n`,
);
await client.close();
