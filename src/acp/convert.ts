/**
 * What the editor sends, in GeekAgent's terms: a prompt's content blocks become the user message's
 * text (resource links named, embedded resources inlined, images handed to the turn), and the MCP servers of
 * `session/new` become one `--mcp-config` value (source `cli`: the person's own servers, no folder
 * trust needed). A saved conversation becomes the updates that replay it (`session/load`).
 */
import type { ContentBlock, McpServer, SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import type { HistoryMessage } from '../agent/history.js';
import type { UserImage } from '../providers/messages.js';
import { outputContent, toolCallStart } from './updates.js';

export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'resource_link':
        parts.push(`@${uriPath(block.uri)}`);
        break;
      case 'resource': {
        const resource = block.resource;
        if ('text' in resource) parts.push(`\n<context uri="${resource.uri}">\n${resource.text}\n</context>`);
        else parts.push(`[attached ${resource.mimeType ?? 'binary'} ${resource.uri}: not readable as text]`);
        break;
      }
      case 'image':
        // Handed to the turn (promptImages): the model gets it if it takes images, else a note.
        break;
      case 'audio':
        parts.push(`[attached audio (${block.mimeType}): this agent cannot take audio]`);
        break;
    }
  }
  return parts.join(' ').trim();
}

/** A file URI as its path (the model reads it with `read`); any other URI as it is. */
function uriPath(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

/** The editor's servers as `{"mcpServers": {...}}` in mcp.json's shape; undefined when none. */
export function mcpConfigValue(servers: readonly McpServer[]): string | undefined {
  if (servers.length === 0) return undefined;
  const entries: Record<string, unknown> = {};
  for (const server of servers) {
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      entries[server.name] = {
        type: server.type,
        url: server.url,
        ...(server.headers.length > 0
          ? { headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])) }
          : {}),
      };
    } else if ('command' in server) {
      entries[server.name] = {
        command: server.command,
        args: server.args,
        ...(server.env.length > 0
          ? { env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])) }
          : {}),
      };
    }
  }
  return JSON.stringify({ mcpServers: entries });
}

/** The updates that show a saved conversation again, in order. */
export function replayUpdates(messages: readonly HistoryMessage[], root: string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: message.text } });
        break;
      case 'assistant':
        if (message.reasoning)
          updates.push({
            sessionUpdate: 'agent_thought_chunk',
            content: { type: 'text', text: message.reasoning },
          });
        if (message.text)
          updates.push({
            sessionUpdate: 'agent_message_chunk',
            content: { type: 'text', text: message.text },
          });
        for (const call of message.toolCalls ?? []) {
          updates.push(toolCallStart(call.id, call.name, call.arguments, root));
        }
        break;
      case 'tool':
        updates.push({
          sessionUpdate: 'tool_call_update',
          toolCallId: message.callId,
          status: message.isError ? 'failed' : 'completed',
          content: outputContent(message.output),
        });
        break;
      case 'summary':
        updates.push({
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: `(earlier conversation, summarised)\n${message.text}` },
        });
        break;
      case 'system':
        break;
    }
  }
  return updates;
}

/** The prompt's image blocks, named for notes (their type is checked from their bytes later). */
export function promptImages(blocks: readonly ContentBlock[]): UserImage[] {
  return blocks.flatMap((block, index) =>
    block.type === 'image'
      ? [
          {
            name: block.uri ? uriPath(block.uri) : `image ${index + 1}`,
            mimeType: block.mimeType,
            data: block.data,
          },
        ]
      : [],
  );
}
