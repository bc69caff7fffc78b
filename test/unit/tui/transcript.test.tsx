/**
 * The transcript: colours by kind, model text as Markdown, tool lines from agent events
 * (shortened), streamed text joined into one entry, the /mcp view, and scrolling.
 */
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/events.js';
import { describeServers } from '../../../src/mcp/describe.js';
import { Transcript } from '../../../src/tui/components/Transcript.js';
import { TranscriptStore } from '../../../src/tui/transcript-store.js';
import { TurnView } from '../../../src/tui/turn-view.js';
import type { Entry } from '../../../src/tui/types.js';
import { colourOf, connected, drawInColour, plain, status, withMarkdown } from './helpers.js';

drawInColour();

const rendered: Array<{ unmount(): void }> = [];
afterEach(() => {
  for (const instance of rendered.splice(0)) instance.unmount();
});

function frameOf(entries: readonly Entry[], scroll = 0): string {
  const instance = render(withMarkdown(<Transcript entries={entries} scroll={scroll} />));
  rendered.push(instance);
  return instance.lastFrame() ?? '';
}

function storeWith(build: (store: TranscriptStore) => void): readonly Entry[] {
  const store = new TranscriptStore();
  build(store);
  return store.entries;
}

function eventsToEntries(events: AgentEvent[]): readonly Entry[] {
  const store = new TranscriptStore();
  const view = new TurnView(store, () => 0);
  for (const event of events) view.apply(event);
  view.finish(undefined);
  return store.entries;
}

describe('Transcript', () => {
  it('colours each kind of line', () => {
    const frame = frameOf(
      storeWith((store) => {
        store.line('user', 'roll the die');
        store.modelText('The die shows five.');
        store.line('tool', '[Calling tool mcp_demo_dice → Roll: 5]');
        store.line('system', 'waiting for MCP servers: demo');
        store.line('error', 'OPENAI_API_KEY is not set');
      }),
    );
    expect(colourOf(frame, 'You › roll the die')).toBe('cyan');
    expect(colourOf(frame, 'The die shows five.')).toBe('green');
    expect(colourOf(frame, '[Calling tool mcp_demo_dice')).toBe('yellow');
    expect(colourOf(frame, 'waiting for MCP servers')).toBe('gray');
    expect(colourOf(frame, 'OPENAI_API_KEY')).toBe('red');
  });

  it('shows model text plain (escaped) until the Markdown lexer is there', () => {
    const entries = storeWith((store) => store.modelText('Here is **bold**\u001b[2J and `code`'));
    const instance = render(<Transcript entries={entries} scroll={0} />);
    rendered.push(instance);
    const text = plain(instance.lastFrame() ?? '');
    expect(text).toContain('Here is **bold**^[[2J and `code`');
  });

  it('renders model Markdown: code block without fences, lists, emphasis, inline code', () => {
    const markdown = [
      'Here is **bold** and `code`:',
      '',
      '```js',
      'const answer = 42;',
      '```',
      '',
      '- first item',
      '- second item',
      '',
      '1. one',
      '2. two',
    ].join('\n');
    const frame = frameOf(storeWith((store) => store.modelText(markdown)));
    const text = plain(frame);
    expect(text).toContain('Here is bold and code:');
    expect(text).not.toContain('```');
    expect(text).not.toContain('**');
    expect(text).toMatch(/^ {2}const answer = 42;$/m);
    expect(text).toMatch(/^• first item$/m);
    expect(text).toMatch(/^• second item$/m);
    expect(text).toMatch(/^1\. one$/m);
    expect(text).toMatch(/^2\. two$/m);
    expect(frame).toContain('\u001b[1mbold');
    expect(colourOf(frame, 'code')).toBe('cyanBright');
    // The code block is not prose-green, so it stands apart.
    expect(colourOf(frame, 'const answer')).not.toBe('green');
  });

  it('joins streamed text into one entry and starts a new one after a tool call', () => {
    const entries = eventsToEntries([
      { type: 'round_start', round: 1 },
      { type: 'text', delta: 'Let me ' },
      { type: 'text', delta: 'check.' },
      { type: 'tool_start', callId: 'c1', name: 'mcp_demo_dice', arguments: '{}' },
      {
        type: 'tool_end',
        callId: 'c1',
        elapsedMs: 5,
        outcome: {
          name: 'mcp_demo_dice',
          arguments: '{}',
          decision: 'approved',
          output: 'Roll: 4',
          isError: false,
        },
      },
      { type: 'round_start', round: 2 },
      { type: 'text', delta: 'You rolled 4.' },
    ]);
    expect(
      entries.map((entry) => (entry.kind === 'question' ? 'question' : `${entry.kind}:${entry.text}`)),
    ).toEqual(['model:Let me check.', 'tool:[Calling tool mcp_demo_dice → Roll: 4]', 'model:You rolled 4.']);
  });

  it('shows a long tool result shortened to one line', () => {
    const long = `${'lorem ipsum '.repeat(100)}THE-END`;
    const entries = eventsToEntries([
      {
        type: 'tool_end',
        callId: 'c1',
        elapsedMs: 5,
        outcome: { name: 'read', arguments: '{}', decision: 'allow', output: long, isError: false },
      },
    ]);
    const text = plain(frameOf(entries)).replace(/\n/g, '');
    expect(text).toMatch(/^\[Calling tool read → lorem ipsum .*…\]$/);
    expect(text).not.toContain('THE-END');
    expect(text.length).toBeLessThan(200);
  });

  it('shows /mcp output: servers with their tools, failures as × lines in red', () => {
    const output = describeServers([
      connected('demo', ['word_count', 'dice']),
      status('broken', { state: 'failed', error: 'spawn no-such-command ENOENT', during: 'startup' }),
    ]);
    const frame = frameOf(storeWith((store) => store.line('system', output)));
    expect(plain(frame).split('\n')).toEqual([
      'demo (2 tools)',
      '  mcp_demo_word_count',
      '  mcp_demo_dice',
      '× broken: spawn no-such-command ENOENT',
    ]);
    expect(colourOf(frame, 'demo (2 tools)')).toBe('gray');
    expect(colourOf(frame, '× broken')).toBe('red');
  });

  it('keeps the newest lines in view and scrolls back by an offset', () => {
    const entries = storeWith((store) => {
      for (let i = 1; i <= 30; i++) store.line('system', `line ${i}`);
    });
    const inBox = (scroll: number) => {
      const instance = render(
        <Box height={10} flexDirection="column">
          <Transcript entries={entries} scroll={scroll} />
        </Box>,
      );
      rendered.push(instance);
      return plain(instance.lastFrame()).split('\n');
    };
    expect(inBox(0)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${21 + i}`));
    expect(inBox(9)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${12 + i}`));
  });

  it('starts at the top while the transcript is shorter than its box', () => {
    const instance = render(
      <Box height={6} flexDirection="column">
        <Transcript entries={storeWith((store) => store.line('title', 'GeekAgent'))} />
      </Box>,
    );
    rendered.push(instance);
    expect(plain(instance.lastFrame()).split('\n')[0]).toBe('GeekAgent');
  });
});
