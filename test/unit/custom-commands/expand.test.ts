import { describe, expect, it } from 'vitest';
import {
  type ExpandIO,
  expandCommand,
  MAX_SHELL_COMMANDS,
  splitArguments,
  substituteArguments,
} from '../../../src/custom-commands/expand.js';
import { readAllowedTools } from '../../../src/custom-commands/parse.js';

function io(files: Record<string, string | { refused: string }> = {}, outputs: Record<string, string> = {}) {
  const ran: string[] = [];
  const notes: string[] = [];
  const included: string[] = [];
  const value: ExpandIO = {
    include: async (relative) => {
      included.push(relative);
      const file = files[relative];
      if (file === undefined) return { kind: 'missing' };
      if (typeof file !== 'string') return { kind: 'refused', text: file.refused };
      return { kind: 'included', text: file };
    },
    run: async (command) => {
      ran.push(command);
      const output = outputs[command];
      return output === undefined ? { ok: false, reason: 'refused' } : { ok: true, output };
    },
    note: (message) => notes.push(message),
  };
  return { io: value, ran, notes, included };
}

describe('arguments', () => {
  it('splits like a shell, simply', () => {
    expect(splitArguments(`a "b c"  'd e' f`)).toEqual(['a', 'b c', 'd e', 'f']);
  });

  it('replaces $ARGUMENTS and $1…$9; a missing one is empty; $10 is not $1', () => {
    expect(substituteArguments('[$ARGUMENTS] [$1] [$2] [$3] $10', 'x "y z"')).toBe(
      '[x "y z"] [x] [y z] [] $10',
    );
  });

  it('appends the arguments when the body does not name them, and nothing when none were given', async () => {
    expect(await expandCommand('Do it.', 'now', io().io)).toEqual({
      ok: true,
      text: 'Do it.\n\nARGUMENTS: now',
    });
    expect(await expandCommand('Do it.', '', io().io)).toEqual({ ok: true, text: 'Do it.' });
  });
});

describe('!`command`', () => {
  it('inserts each output in place, with arguments inside the command', async () => {
    const t = io({}, { 'git log -1 main': 'abc123\n', date: 'today' });
    const out = await expandCommand('Last: !`git log -1 $1`\nWhen: !`date`.', 'main', t.io);
    expect(out).toEqual({ ok: true, text: 'Last: abc123\nWhen: today.' });
    expect(t.ran).toEqual(['git log -1 main', 'date']);
  });

  it('stops the command when one is not run, and runs nothing from the arguments', async () => {
    const t = io({}, {});
    expect(await expandCommand('!`make`', '', t.io)).toEqual({
      ok: false,
      error: '!`make` was not run: refused',
    });
    const args = io({}, {});
    expect(await expandCommand('Say $ARGUMENTS', '!`rm -rf x` @secret', args.io)).toEqual({
      ok: true,
      text: 'Say !`rm -rf x` @secret',
    });
    expect(args.ran).toEqual([]);
    expect(args.included).toEqual([]);
  });

  it('refuses a file with too many commands before running any', async () => {
    const t = io();
    const body = Array.from({ length: MAX_SHELL_COMMANDS + 1 }, (_, i) => `!\`echo ${i}\``).join('\n');
    const out = await expandCommand(body, '', t.io);
    expect(out.ok).toBe(false);
    expect(t.ran).toEqual([]);
  });

  it('leaves a ! that is not at a word start alone', async () => {
    const t = io();
    expect(await expandCommand('wow!`x`', '', t.io)).toEqual({ ok: true, text: 'wow!`x`' });
  });
});

describe('@path', () => {
  it('appends included files once each, notes refused ones, leaves missing ones and e-mail addresses as text', async () => {
    const t = io({ 'src/a.ts': 'A\n', '.env': { refused: 'a secret file' } });
    const out = await expandCommand(
      'See @src/a.ts, @$1 and @.env; mail me@x.org about @nothing.',
      'src/a.ts',
      t.io,
    );
    expect(out).toEqual({
      ok: true,
      text: 'See @src/a.ts, @src/a.ts and @.env; mail me@x.org about @nothing.\n\n<file path="src/a.ts">\nA\n</file>',
    });
    expect(t.included).toEqual(['src/a.ts', '.env', 'nothing']);
    expect(t.notes).toEqual(['@.env not included: a secret file']);
  });
});

describe('allowed-tools', () => {
  it("maps Claude Code's names, keeps patterns, sets scoped entries aside", () => {
    expect(readAllowedTools('Bash(git add:*), Bash(git status:*), Read, mcp_github_*')).toEqual({
      tools: ['read', 'mcp_github_*'],
      ignored: ['Bash(git add:*)', 'Bash(git status:*)'],
    });
    expect(readAllowedTools(['run_shell', 'Edit'])).toEqual({ tools: ['run_shell', 'patch'], ignored: [] });
    expect(typeof readAllowedTools({ a: 'b' })).toBe('string');
  });
});

describe('the README example', () => {
  it('reads as documented (comments after values are not part of them)', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const { readCommand } = await import('../../../src/custom-commands/parse.js');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'commands-'));
    const file = path.join(dir, 'review.md');
    await writeFile(
      file,
      [
        '---',
        'description: Review a file for bugs          # shown in /help (default: the first line)',
        'argument-hint: <file> [focus]                # shown after the name in /help',
        'allowed-tools: read, search, Bash            # pre-approved for this command’s turn only',
        'model: fast                                  # a models.json name or a model id, this turn only',
        '---',
        'Review @$1 with a focus on $2.',
      ].join('\n'),
    );
    const command = await readCommand(file, 'review', 'user', true);
    expect(command).toMatchObject({
      status: { kind: 'ok' },
      description: 'Review a file for bugs',
      argumentHint: '<file> [focus]',
      allowedTools: ['read', 'search', 'run_shell'],
      model: 'fast',
      body: 'Review @$1 with a focus on $2.',
    });
  });
});
