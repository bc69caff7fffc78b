// Bench-only MCP server without the SDK: answers initialize, tools/list and tools/call `big` with
// a result serialised once at start, so its per-call cost is writing bytes — the same work as the
// echo child of the raw-pipe baseline. What remains of the agent's time is the client's.
import { createInterface } from 'node:readline';

const BYTES = Number(process.env.BIG_BYTES ?? 10 * 1024 * 1024);
const suffix = Buffer.from(`,"result":{"content":[{"type":"text","text":"${'y'.repeat(BYTES)}"}]}}\n`);
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === 'initialize') {
    send({
      jsonrpc: '2.0',
      id: message.id,
      result: {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'prebuilt', version: '1' },
      },
    });
  } else if (message.method === 'tools/list') {
    send({
      jsonrpc: '2.0',
      id: message.id,
      result: { tools: [{ name: 'big', inputSchema: { type: 'object', properties: {} } }] },
    });
  } else if (message.method === 'tools/call') {
    process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)}`);
    process.stdout.write(suffix);
  } else {
    send({ jsonrpc: '2.0', id: message.id, result: {} });
  }
});
