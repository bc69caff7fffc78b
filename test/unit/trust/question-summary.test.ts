import { describe, expect, it } from 'vitest';
import { allowDeclaration } from '../../../src/permissions/feature/declarations.js';
import type { FolderTrust } from '../../../src/trust/decide.js';
import { type Declaration, serverDeclaration } from '../../../src/trust/declarations.js';
import { FULL_LIST_HINT, trustQuestionSummary } from '../../../src/trust/question-summary.js';

type Untrusted = Extract<FolderTrust, { state: 'untrusted' }>;

const FOLDER = '/home/me/cloned-repo';

function untrusted(items: Declaration[], changes?: Untrusted['changes']): Untrusted {
  return {
    state: 'untrusted',
    declarations: { projectDir: FOLDER, folder: FOLDER, items },
    ...(changes ? { changes } : {}),
  };
}

const server = (name: string, command: string, args: string[] = []) =>
  serverDeclaration(`${FOLDER}/.geekagent/mcp.json`, name, { command, args });
const allow = (pattern: string) => allowDeclaration(`${FOLDER}/.geekagent/GeekAgent.json`, pattern);

describe('the trust question summarised to fit', () => {
  it('shows everything, one entry a line, when it fits, and needs no note', () => {
    const summary = trustQuestionSummary(
      untrusted([server('demo', 'node', ['demo.mjs']), allow('run_shell')]),
      {
        width: 100,
        rows: 20,
      },
    );
    expect(summary).toEqual({
      lines: [
        `GeekAgent has not run in this folder before: ${FOLDER}`,
        'It declares 1 MCP server, 1 tool rule (nothing of it is used until you trust it):',
        '  MCP server demo: node demo.mjs',
        '  tool rule "run_shell": "allow"',
      ],
      shortened: false,
    });
  });

  it('85 servers cannot push a lone allow rule off the screen: each kind gets its turn, the rest counted', () => {
    const items = [
      ...Array.from({ length: 85 }, (_, i) => server(`s${i}`, 'node', ['x.mjs'])),
      allow('run_shell'),
    ];
    const { lines, shortened } = trustQuestionSummary(untrusted(items), { width: 80, rows: 12 });
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(shortened).toBe(true);
    expect(lines.slice(1, 3)).toEqual([
      'It declares 85 MCP servers, 1 tool rule',
      '(nothing of it is used until you trust it):',
    ]);
    expect(lines).toContain('  tool rule "run_shell": "allow"');
    expect(lines.some((line) => /^ {2}… and \d+ more MCP servers$/.test(line))).toBe(true);
    expect(lines.at(-1)).toBe(`(${FULL_LIST_HINT})`);
  });

  it('puts the command before padding: blank runs counted, long words cut, every line within the width', () => {
    const items = [server('pad', 'node', [' '.repeat(4000), 'x'.repeat(3000), '--really', 'evil.js'])];
    const { lines, shortened } = trustQuestionSummary(untrusted(items), { width: 60, rows: 10 });
    expect(shortened).toBe(true);
    const entry = lines.filter((line) => line.startsWith('  MCP') || line.startsWith('    ')).join('\n');
    expect(entry).toContain("MCP server pad: node '⟨4000 spaces⟩'");
    expect(entry).toContain('⟨x ×3000⟩');
    expect(entry).toContain('evil.js');
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(60);
  });

  it('a line too long for its rows ends with … and the note says where the rest is', () => {
    const args = Array.from({ length: 200 }, (_, i) => `arg${i}`);
    const { lines } = trustQuestionSummary(untrusted([server('long', 'node', args)]), {
      width: 40,
      rows: 10,
    });
    const entry = lines.filter((line) => line.startsWith('  MCP') || line.startsWith('    '));
    expect(entry.length).toBeLessThanOrEqual(3);
    expect(entry.at(-1)).toMatch(/…$/);
    expect(lines.at(-1)).toBe(`(${FULL_LIST_HINT})`);
  });

  it('shows a change with what it was, escapes visible', () => {
    const now = server('demo', 'node', ['new.mjs']);
    const { lines } = trustQuestionSummary(
      untrusted(
        [now, allow('read')],
        [{ change: 'changed', item: now, was: 'MCP server demo: node \u001b[2Jold.mjs' }],
      ),
      { width: 80, rows: 20 },
    );
    expect(lines).toEqual([
      `This folder changed since you trusted it: ${FOLDER}`,
      '1 changed: 1 MCP server',
      '(and 1 unchanged that you trusted before)',
      '  changed: MCP server demo: node new.mjs',
      '      was: MCP server demo: node ^[[2Jold.mjs',
    ]);
  });
});
