/** The side panel: its lines in order, MCP states, root shortening, and hiding on narrow terminals. */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { panelMcpLine } from '../../../src/mcp/status.js';
import { Panel } from '../../../src/tui/components/Panel.js';
import { Screen } from '../../../src/tui/components/Screen.js';
import { shortenPath } from '../../../src/tui/panel-lines.js';
import { connected, drawInColour, panelData, plain, recordingTarget, snapshot, status } from './helpers.js';

drawInColour();

const rendered: Array<{ unmount(): void }> = [];
afterEach(() => {
  for (const instance of rendered.splice(0)) instance.unmount();
});

function panelText(data = panelData()): string[] {
  const instance = render(<Panel data={data} />);
  rendered.push(instance);
  // Drop the border column so each line reads as the person sees the panel's text.
  return plain(instance.lastFrame())
    .split('\n')
    .map((line) => line.replace(/^│\s?/, '').trimEnd());
}

describe('Panel', () => {
  it('merges the core rows and the extensions’ rows in the specified order', () => {
    const lines = panelText(
      panelData({
        session: 'k3j9x2ab',
        instructions: true,
        mcp: 'demo(2)',
        contextTokens: 3_200,
        turnTokens: 345,
        totalTokens: 4_000,
      }),
    );
    expect(lines).toEqual([
      'Model fake-model',
      'Session k3j9x2ab',
      'Root /tmp/p',
      'Instructions loaded',
      'MCP demo(2)',
      'Context 3,200 / 128,000',
      '3% used',
      'Turn 345 tokens',
      'Total 4,000 tokens',
    ]);
  });

  it('shows provider · model and the share of the last prompt read from the cache', () => {
    const lines = panelText(
      panelData({ model: 'anthropic · claude-x', contextTokens: 12_800, cachedPercent: 87, rows: [] }),
    );
    expect(lines.filter((line) => line !== '')).toEqual([
      'Model anthropic · claude-x',
      'Root /tmp/p',
      'Context 12,800 / 128,000',
      '10% used · cached 87%',
      'Turn 0 tokens',
      'Total 0 tokens',
    ]);
  });

  it('shows no row for a feature that is not there (no hard-coded “none” rows)', () => {
    const lines = panelText(panelData({ rows: [] }));
    expect(lines.filter((line) => line !== '')).toEqual([
      'Model fake-model',
      'Root /tmp/p',
      'Context 0 / 128,000',
      '0% used',
      'Turn 0 tokens',
      'Total 0 tokens',
    ]);
  });

  it('says not configured when there is no API key, and none without AGENTS.md', () => {
    const lines = panelText(panelData({ model: undefined, instructions: false }));
    expect(lines).toContain('Model not configured');
    expect(lines).toContain('Instructions none');
  });

  it('shows each MCP state the status line can take', () => {
    const statuses = [
      connected('demo', ['word_count', 'dice']),
      status('broken', { state: 'failed', error: 'spawn ENOENT', during: 'startup' }),
      status('slow', { state: 'connecting', attempt: 1 }),
    ];
    expect(panelText(panelData({ mcp: panelMcpLine([]) }))).toContain('MCP none');
    // The line wraps inside the 26 usable columns; read it back as one line.
    const lines = panelText(panelData({ mcp: panelMcpLine(statuses) }))
      .join(' ')
      .replace(/\s+/g, ' ');
    expect(lines).toContain('MCP demo(2), broken(failed to start),');
    expect(lines).toContain('slow(connecting)');
  });

  it('shortens a long root to …/basename', () => {
    const root = '/home/someone/projects/clients/acme/geekagent-checkout';
    expect(panelText(panelData({ root }))).toContain('Root …/geekagent-checkout');
    expect(shortenPath('/a/b', 21)).toBe('/a/b');
    expect(shortenPath('/very/long/path/with/a-basename-that-is-too-long', 21)).toBe('…/a-basename-that-is…');
  });
});

describe('Screen layout', () => {
  const frameAt = (cols: number) => {
    const instance = render(
      <Screen
        snapshot={snapshot({ panel: panelData({ mcp: 'demo(2)' }) })}
        target={recordingTarget()}
        cols={cols}
        rows={16}
      />,
    );
    rendered.push(instance);
    return plain(instance.lastFrame());
  };

  it("shows the panel at 90 columns and more, and hides it below (80 columns are the transcript's)", () => {
    expect(frameAt(90)).toContain('MCP demo(2)');
    expect(frameAt(89)).not.toContain('MCP demo(2)');
    expect(frameAt(80)).not.toContain('Model');
  });

  it('clips the panel on a short terminal instead of squeezing its lines together', () => {
    const instance = render(<Screen snapshot={snapshot()} target={recordingTarget()} cols={100} rows={8} />);
    rendered.push(instance);
    const panel = plain(instance.lastFrame())
      .split('\n')
      .map((line) => line.split('│')[1]?.trim() ?? '');
    expect(panel.slice(0, 6)).toEqual([
      'Model fake-model',
      'Root /tmp/p',
      'Instructions none',
      'MCP none',
      'Context 0 / 128,000',
      '0% used',
    ]);
  });

  it('fills the terminal height and puts the input under a rule at the bottom', () => {
    const lines = frameAt(80).split('\n');
    expect(lines).toHaveLength(16);
    expect(lines[14]).toMatch(/^─{80}$/);
    expect(lines[15]).toMatch(/^› /);
  });
});
