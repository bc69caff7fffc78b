// The demo MCP server that ships with GeekAgent: two tools on the SDK's server API, over stdio.
// `.geekagent/mcp.json` declares it as `demo`, so `npm start` shows MCP demo(2).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'geekagent-demo', version: '1.0.0' });

server.registerTool(
  'word_count',
  {
    description:
      'Count the characters and words of a piece of text (words are counted by splitting on whitespace).',
    inputSchema: { text: z.string().describe('The text to count') },
  },
  async ({ text }) => {
    const words = text.split(/\s+/).filter(Boolean).length;
    return { content: [{ type: 'text', text: `Characters ${text.length}, words ${words}` }] };
  },
);

server.registerTool(
  'dice',
  { description: 'Roll a six-sided die and return the random result.', inputSchema: {} },
  async () => ({ content: [{ type: 'text', text: `Roll: ${1 + Math.floor(Math.random() * 6)}` }] }),
);

await server.connect(new StdioServerTransport());
