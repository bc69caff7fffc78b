/**
 * Resources the person attached earlier (`@server:uri`), at the next turn: each one its server said
 * changed — or that may have changed unseen (a dropped listen stream, a restart) — is read again,
 * and one whose content differs from what was attached goes with the person's message, after it,
 * saying so. The person is told which (`turn.notify`). What stays the same adds nothing; a
 * resource that cannot be read now is tried again at the turn after.
 */
import { outputToText } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import type { McpConnection } from './connection.js';
import { readResource } from './resources.js';

export interface ResourceUpdates {
  text: string;
  /** `@server:uri` of each resource whose new content was attached. */
  updated: string[];
  problems: string[];
}

/** Whether any attached resource is due a re-read (the input hook's quick check). */
export function resourceUpdatesPending(connections: readonly McpConnection[]): boolean {
  return connections.some(
    (connection) => connection.state.state === 'connected' && connection.changes.pending().length > 0,
  );
}

export async function attachResourceUpdates(
  input: string,
  connections: readonly McpConnection[],
  options: { acceptsMedia: boolean; signal?: AbortSignal },
): Promise<ResourceUpdates> {
  const blocks: string[] = [];
  const updated: string[] = [];
  const problems: string[] = [];
  for (const connection of connections) {
    if (connection.state.state !== 'connected') continue;
    for (const uri of connection.changes.pending()) {
      const mention = `@${connection.name}:${uri}`;
      try {
        const content = outputToText(await readResource(connection, uri, options));
        if (!connection.changes.reread(uri, content)) continue;
        blocks.push(`Resource ${mention} changed since it was attached; its content now:\n${content}`);
        updated.push(mention);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        problems.push(`could not read ${mention} again: ${errorMessage(error)}`);
      }
    }
  }
  return { text: blocks.length === 0 ? input : `${input}\n\n${blocks.join('\n\n')}`, updated, problems };
}
