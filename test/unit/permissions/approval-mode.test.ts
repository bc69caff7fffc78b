/** The approval mode's gate: what each mode refuses or lifts, bypass's trust, the Shift+Tab cycle. */
import { describe, expect, it } from 'vitest';
import { ApprovalMode } from '../../../src/permissions/approval-mode.js';
import type { Tool } from '../../../src/tools/types.js';
import { KeyDecoder } from '../../../src/tui/keys.js';

const tool = (name: string, origin?: Tool['origin']): Tool => ({
  name,
  description: '',
  parameters: {},
  run: async () => '',
  ...(origin ? { origin } : {}),
});

const modeFor = (trusted = true, readOnlyMcp: string[] = []) =>
  new ApprovalMode({ trustedByPerson: trusted, isReadOnlyMcp: (name) => readOnlyMcp.includes(name) });

describe('ApprovalMode', () => {
  it('default changes nothing; accept-edits lifts the ask of write and patch only', () => {
    const mode = modeFor();
    expect(mode.judge(tool('write'), { policy: 'ask' })).toEqual({ policy: 'ask' });
    expect(mode.set('accept-edits')).toBeUndefined();
    expect(mode.judge(tool('write'), { policy: 'ask' })).toEqual({ policy: 'allow' });
    expect(mode.judge(tool('patch'), { policy: 'ask' })).toEqual({ policy: 'allow' });
    expect(mode.judge(tool('run_shell'), { policy: 'ask' })).toEqual({ policy: 'ask' });
    // An MCP tool that happens to be called `write` is not a file edit inside the root.
    expect(mode.judge(tool('write', { kind: 'mcp', server: 's', tool: 'write' }), { policy: 'ask' })).toEqual(
      {
        policy: 'ask',
      },
    );
  });

  it('plan runs read-only tools (built-in, read-only MCP, resource helpers) and refuses the rest', () => {
    const mode = modeFor(true, ['mcp_gh_list']);
    mode.set('plan');
    expect(mode.judge(tool('read'), { policy: 'allow' })).toEqual({ policy: 'allow' });
    expect(mode.judge(tool('fetch'), { policy: 'ask' })).toEqual({ policy: 'ask' });
    expect(
      mode.judge(tool('mcp_gh_list', { kind: 'mcp', server: 'gh', tool: 'list' }), { policy: 'allow' }),
    ).toEqual({ policy: 'allow' });
    const helper = tool('mcp_gh_read_resource', {
      kind: 'mcp',
      server: 'gh',
      tool: 'read_resource',
      resourceHelper: true,
    });
    expect(mode.judge(helper, { policy: 'allow' })).toEqual({ policy: 'allow' });
    for (const name of ['write', 'patch', 'run_shell', 'memory_write', 'rag_add'])
      expect(mode.judge(tool(name), { policy: 'allow' })).toMatchObject({
        refuse: expect.stringMatching(new RegExp(`^plan mode: ${name} was not run`)),
      });
    expect(
      mode.judge(tool('mcp_gh_delete', { kind: 'mcp', server: 'gh', tool: 'delete' }), { policy: 'allow' }),
    ).toHaveProperty('refuse');
  });

  it('bypass lifts every ask but a changed definition; refused where the person has not trusted the folder', () => {
    const untrusted = modeFor(false);
    expect(untrusted.set('bypass')).toMatch(/bypass refused: this folder is not trusted/);
    expect(untrusted.current).toBe('default');
    const mode = modeFor(true);
    expect(mode.set('bypass')).toBeUndefined();
    expect(mode.judge(tool('run_shell'), { policy: 'ask' })).toEqual({ policy: 'allow' });
    const review = { reason: 'definition changed since approved' };
    expect(mode.judge(tool('mcp_x'), { policy: 'ask', review })).toEqual({ policy: 'ask' });
    expect(mode.set('sideways')).toMatch(/unknown approval mode "sideways"/);
  });

  it('cycles default → accept-edits → plan, with bypass only once chosen, and tells listeners', () => {
    const mode = modeFor(true);
    const seen: string[] = [];
    mode.onChange((m) => seen.push(m));
    expect([mode.cycle(), mode.cycle(), mode.cycle()]).toEqual(['accept-edits', 'plan', 'default']);
    mode.set('bypass');
    expect([mode.cycle(), mode.cycle(), mode.cycle(), mode.cycle()]).toEqual([
      'default',
      'accept-edits',
      'plan',
      'bypass',
    ]);
    expect(seen).toEqual([
      'accept-edits',
      'plan',
      'default',
      'bypass',
      'default',
      'accept-edits',
      'plan',
      'bypass',
    ]);
  });

  it('Shift+Tab arrives as ESC [ Z, also cut between two reads', () => {
    expect(new KeyDecoder().decode('\u001b[Z')).toEqual([{ type: 'key', name: 'backTab' }]);
    const decoder = new KeyDecoder();
    expect(decoder.decode('\u001b[')).toEqual([]);
    expect(decoder.decode('Z')).toEqual([{ type: 'key', name: 'backTab' }]);
  });
});
