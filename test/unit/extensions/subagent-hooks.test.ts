/**
 * Which before-request hooks reach a sub-agent: only those registered with `subAgents`, in order,
 * a factory's made fresh for each child run; the main agent's hooks are all of them.
 */
import { describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/agent/conversation.js';
import type { RequestScope } from '../../../src/agent/turn-points.js';
import { ExtensionHost } from '../../../src/extensions/host.js';
import type { ChatProvider } from '../../../src/providers/types.js';
import { ToolRegistry } from '../../../src/tools/registry.js';

function scope(): RequestScope {
  return {
    signal: new AbortController().signal,
    conversation: new Conversation(),
    turnStart: undefined,
    estimateTokens: () => 0,
    requestChars: () => 0,
    trigger: 'auto',
    waiting: () => undefined,
    emit: () => undefined,
  };
}

/** A provider that is only looked at, never asked. */
function model(name: string): ChatProvider {
  return {
    name: 'test',
    model: name,
    contextWindow: 4_000,
    acceptsMedia: false,
    complete: async () => {
      throw new Error('not asked');
    },
  } as unknown as ChatProvider;
}

describe('before-request hooks and sub-agents', () => {
  it('a child run gets the opted-in hooks only, each factory made once per run', async () => {
    const host = new ExtensionHost({
      registry: new ToolRegistry(),
      policies: { ensureToolPolicy: () => undefined },
    });
    const calls: string[] = [];
    let made = 0;
    await host.add({
      name: 'hooks',
      setup(setup) {
        setup.on.beforeRequest(async () => void calls.push('wait'), { subAgents: 'same' });
        setup.on.beforeRequest(async () => void calls.push('main-only'));
        setup.on.beforeRequest(async () => void calls.push('compact'), {
          subAgents: ({ provider }) => {
            const run = ++made;
            return async () => void calls.push(`compact#${run}@${provider.model}`);
          },
        });
      },
    });

    await host.turnPoints.beforeRequest(scope());
    expect(calls.splice(0)).toEqual(['wait', 'main-only', 'compact']);

    const first = host.subAgentBeforeRequest({ provider: model('small-model') });
    const second = host.subAgentBeforeRequest({ provider: model('other-model') });
    await first(scope());
    await first(scope());
    await second(scope());
    // Each run's factory hears its own model (compaction sizes and summarises with it).
    expect(calls).toEqual([
      'wait',
      'compact#1@small-model',
      'wait',
      'compact#1@small-model',
      'wait',
      'compact#2@other-model',
    ]);
    expect(made).toBe(2);
  });
});
