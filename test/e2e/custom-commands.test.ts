/**
 * Custom Markdown commands through print mode (the built CLI, the fake model): each location (the
 * user's `$GEEKAGENT_HOME/commands` and `~/.claude/commands`, a trusted project's
 * `.geekagent/commands` and `.claude/commands`; an untrusted project's not loaded), namespaced
 * sub-folders, `$ARGUMENTS`/`$1`, `@path` includes inside the root only, `` !`command` `` asked
 * (sandbox off) or confined, `allowed-tools` for the command's turn only, `model` reaching the
 * request, a bad file listed with its error, and a built-in's name never taken.
 */
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { itWithSandbox } from '../helpers/sandbox-gate.js';
import { cliFixture, type JsonOutput, parseJsonOutput } from './harness.js';

const fx = cliFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });
/** The text of the last user message the model received. */
const userText = (request: RecordedRequest) => {
  const users = request.body.messages.filter((message) => message.role === 'user');
  return JSON.stringify(users.at(-1)?.content);
};
const decisions = (out: JsonOutput) => out.tool_calls.map((c) => [c.name, c.decision]);

async function userCommand(relative: string, text: string, base = ['.geekagent', 'commands']) {
  const file = path.join(fx.project.home, ...base, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

describe('where commands come from', () => {
  it('runs a user command ($GEEKAGENT_HOME/commands) with $ARGUMENTS and $1/$2, and one from ~/.claude/commands', async () => {
    await userCommand(
      'greet.md',
      '---\ndescription: Greet someone\nargument-hint: <first> <last>\n---\nSay hello to $1 (family name $2); all: $ARGUMENTS.\n',
    );
    await userCommand('shout.md', 'Shout the word.\n', ['.claude', 'commands']);
    fx.fake.push({ text: 'hello Ada' }, { text: 'LOUD' });
    const run = await fx.run(['-p', '/greet Ada "King Lovelace"']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('hello Ada\n');
    expect(userText(fx.fake.requests[0]!)).toContain(
      'Say hello to Ada (family name King Lovelace); all: Ada \\"King Lovelace\\".',
    );
    // No $ARGUMENTS in the body: the arguments are appended.
    const shout = await fx.run(['-p', '/shout now']);
    expect(shout.code, shout.stderr).toBe(0);
    expect(userText(fx.fake.requests[1]!)).toContain('Shout the word.\\n\\nARGUMENTS: now');
  });

  it('runs a trusted project’s .geekagent/commands and .claude/commands, a sub-folder namespaced; /help lists them', async () => {
    await fx.project.write(
      '.geekagent/commands/review.md',
      '---\ndescription: Review code\n---\nReview $ARGUMENTS.\n',
    );
    await fx.project.write('.geekagent/commands/frontend/review.md', 'Review the frontend part $1.\n');
    await fx.project.write('.claude/commands/fix.md', '---\ndescription: Fix it\n---\nFix $ARGUMENTS now.\n');
    const help = await fx.run(['-p', '/help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/\/review\s+\(project\) Review code/);
    expect(help.stdout).toMatch(/\/frontend:review\s+\(project\) Review the frontend part \$1\./);
    expect(help.stdout).toMatch(/\/fix\s+\(project\) Fix it/);
    fx.fake.push({ text: 'one' }, { text: 'two' }, { text: 'three' });
    for (const line of ['/review src', '/frontend:review Nav', '/fix the bug'])
      expect((await fx.run(['-p', line])).code).toBe(0);
    expect(userText(fx.fake.requests[0]!)).toContain('Review src.');
    expect(userText(fx.fake.requests[1]!)).toContain('Review the frontend part Nav.');
    expect(userText(fx.fake.requests[2]!)).toContain('Fix the bug now.');
  });

  it('does not load an untrusted project’s commands (a notice; /commands lists them), and trusting it asks again when one changes', async () => {
    await fx.project.write('.geekagent/commands/review.md', 'Review $ARGUMENTS.\n');
    await fx.project.write('.claude/commands/deploy.md', '!`touch pwned`\nDeploy.\n');
    const run = await fx.run(['-p', '/review src'], { trusted: false });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('2 project commands not loaded: this folder is not trusted');
    expect(run.stderr).toContain('unknown command: /review');
    expect(run.stderr).toContain('ignoring 2 custom commands');
    const deploy = await fx.run(['-p', '/deploy'], { trusted: false });
    expect(deploy.code).toBe(1);
    expect(existsSync(path.join(fx.project.dir, 'pwned'))).toBe(false);
    expect(fx.fake.requests).toHaveLength(0);
    const list = await fx.run(['-p', '/commands'], { trusted: false });
    expect(list.stdout).toContain(
      '/review  not loaded: the folder is not trusted  [.geekagent/commands/review.md]',
    );

    const trust = await fx.run(['trust'], { trusted: false });
    expect(trust.stdout).toContain(
      'custom command /review (.geekagent/commands/review.md: its prompt, !`shell` lines, allowed-tools, model)',
    );
    fx.fake.push({ text: 'reviewed' });
    expect((await fx.run(['-p', '/review src'], { trusted: false })).stdout).toBe('reviewed\n');
    await fx.project.write('.geekagent/commands/review.md', 'Review $ARGUMENTS and push.\n');
    const changed = await fx.run(['-p', '/review src'], { trusted: false });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('folder changed since you trusted it (1 changed)');
    expect(fx.fake.requests).toHaveLength(1);
  });

  it('lets a project command win over the user’s of the same name, and never takes a built-in’s name', async () => {
    await fx.project.write('.geekagent/commands/review.md', 'Project review.\n');
    await userCommand('review.md', 'User review.\n');
    await fx.project.write('.geekagent/commands/help.md', 'Not the help.\n');
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', '/review']);
    expect(run.code, run.stderr).toBe(0);
    expect(userText(fx.fake.requests[0]!)).toContain('Project review.');
    expect(run.stderr).toContain('custom command /help');
    expect(run.stderr).toContain('is not loaded: a built-in command has that name');
    const list = await fx.run(['-p', '/commands']);
    expect(list.stdout).toContain('/review  Project review.  [project: .geekagent/commands/review.md]');
    expect(list.stdout).toContain(
      `/review  not loaded: .geekagent/commands/review.md has that name  [${path.join(fx.project.home, '.geekagent', 'commands', 'review.md')}]`,
    );
    const help = await fx.run(['-p', '/help']);
    expect(help.stdout).toContain('list the commands');
    expect(help.stdout).not.toContain('Not the help');
  });

  it('lists a bad file with its path and error (escaped), never a crash; the others still run', async () => {
    await fx.project.write('.geekagent/commands/broken.md', '---\ndescription: never closed\nReview.\n');
    await fx.project.write('.geekagent/commands/empty.md', '---\ndescription: nothing\n---\n');
    await fx.project.write('.geekagent/commands/huge.md', `${'x'.repeat(70 * 1024)}\n`);
    await fx.project.write('.geekagent/commands/bad\u001b[31mname.md', 'Hi.\n');
    await fx.project.write('.geekagent/commands/good.md', 'Good.\n');
    const list = await fx.run(['-p', '/commands']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toContain('4 custom command files have errors: /commands lists them');
    expect(list.stdout).toContain(
      '✗ /broken  .geekagent/commands/broken.md:1: frontmatter has no closing ---',
    );
    expect(list.stdout).toContain('✗ /empty  .geekagent/commands/empty.md:1: the command has no text');
    expect(list.stdout).toContain(
      '✗ /huge  .geekagent/commands/huge.md:1: too large: 71681 bytes (at most 65536)',
    );
    expect(list.stdout).toContain('cannot be typed as a command');
    expect(list.stdout).not.toContain('\u001b[31m');
    fx.fake.push({ text: 'good' });
    expect((await fx.run(['-p', '/good'])).stdout).toBe('good\n');
  });
});

describe('what a command body does', () => {
  it('includes @path files inside the root; refuses one outside, a link out, a secret and a protected file with a note', async () => {
    await fx.project.write('src/a.ts', 'export const a = 1;\n');
    await writeFile(path.join(path.dirname(fx.project.dir), 'outside.txt'), 'OUTSIDE SECRET');
    await symlink(
      path.join(path.dirname(fx.project.dir), 'outside.txt'),
      path.join(fx.project.dir, 'link.txt'),
    );
    await fx.project.write('.env', 'TOKEN=ENV SECRET');
    await fx.project.write('.geekagent/GeekAgent.json', '{"tools": {}}');
    await fx.project.write(
      '.geekagent/commands/look.md',
      'Look at @src/a.ts and @$1, also @../outside.txt, @link.txt, @.env and @.geekagent/GeekAgent.json. Mail me@example.com.\n',
    );
    fx.fake.push({ text: 'looked' });
    const run = await fx.run(['-p', '/look src/a.ts', '--output-format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    // The notes go to stderr: stdout is the JSON result alone.
    expect(parseJsonOutput(run).result).toBe('looked');
    const sent = userText(fx.fake.requests[0]!);
    expect(sent).toContain('<file path=\\"src/a.ts\\">\\nexport const a = 1;\\n</file>');
    expect(sent.match(/<file path=/g)).toHaveLength(1);
    expect(sent).not.toContain('OUTSIDE SECRET');
    expect(sent).not.toContain('ENV SECRET');
    expect(run.stderr).toContain('@../outside.txt not included: outside the project folder');
    expect(run.stderr).toContain(
      '@link.txt not included: a symbolic link to a file outside the project folder',
    );
    expect(run.stderr).toContain('@.env not included: a secret file');
    expect(run.stderr).toContain('@.geekagent/GeekAgent.json not included: a protected file');
  });

  it('asks for a !`command` (sandbox off): refused in print mode without --allow, nothing sent; run with --allow run_shell', async () => {
    await fx.project.write(
      '.geekagent/commands/status.md',
      'Status:\n!`echo branch-$1 && touch ran`\nSummarise.\n',
    );
    const env = { GEEKAGENT_SANDBOX: 'off' };
    const refused = await fx.run(['-p', '/status main'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      '/status: !`echo branch-main && touch ran` was not run: needs approval: run interactively or pass --allow run_shell',
    );
    expect(existsSync(path.join(fx.project.dir, 'ran'))).toBe(false);
    expect(fx.fake.requests).toHaveLength(0);

    fx.fake.push({ text: 'summarised' });
    const allowed = await fx.run(['-p', '/status main', '--allow', 'run_shell'], { env });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(userText(fx.fake.requests[0]!)).toContain('Status:\\nbranch-main\\nSummarise.');

    const denied = await fx.run(['-p', '/status main', '--allow', 'run_shell', '--deny', 'run_shell'], {
      env,
    });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('permission denied: tool run_shell is not allowed');
  });

  itWithSandbox(
    'runs a !`command` confined by the sandbox without asking (and confined: it cannot write outside the root)',
    async () => {
      const outside = path.join(path.dirname(fx.project.dir), 'escaped');
      await fx.project.write(
        '.geekagent/commands/probe.md',
        `Probe:\n!\`echo inside; touch ${outside} 2>/dev/null || echo refused-outside\`\n`,
      );
      fx.fake.push({ text: 'probed' });
      const run = await fx.run(['-p', '/probe']);
      expect(run.code, run.stderr).toBe(0);
      expect(userText(fx.fake.requests[0]!)).toContain('inside\\nrefused-outside');
      expect(existsSync(outside)).toBe(false);
    },
  );

  it('pre-approves allowed-tools for the command’s turn only (sandbox off: run_shell is asked otherwise)', async () => {
    await fx.project.write(
      '.geekagent/commands/ship.md',
      '---\nallowed-tools: Bash, Read, Bash(git push:*)\n---\nShip it.\n',
    );
    const env = { GEEKAGENT_SANDBOX: 'off' };
    fx.fake.push({ toolCalls: [call('run_shell', { command: 'echo shipped' })] }, { text: 'done' });
    const run = await fx.run(['-p', '/ship', '--output-format', 'json'], { env });
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(decisions(out)).toEqual([['run_shell', 'allow']]);
    expect(out.tool_calls[0]!.result).toContain('shipped');

    // The next turn of the same session is back to the rules.
    fx.fake.push({ toolCalls: [call('run_shell', { command: 'echo again' })] }, { text: 'no' });
    const next = await fx.run(['-p', 'again', '--continue', '--output-format', 'json'], { env });
    expect(decisions(parseJsonOutput(next))).toEqual([['run_shell', 'refused']]);
    // The scoped entry is listed as granting nothing.
    const list = await fx.run(['-p', '/commands']);
    expect(list.stdout).toContain(
      'allowed-tools run_shell, read · ignored (rules name whole tools): Bash(git push:*)',
    );
  });

  it('pre-approves its allowed-tools for its own !`command` lines too (sandbox off, no --allow)', async () => {
    await fx.project.write(
      '.geekagent/commands/st.md',
      '---\nallowed-tools: run_shell\n---\nNow: !`echo granted`\n',
    );
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', '/st'], { env: { GEEKAGENT_SANDBOX: 'off' } });
    expect(run.code, run.stderr).toBe(0);
    expect(userText(fx.fake.requests[0]!)).toContain('Now: granted');
  });

  it('uses the command’s model for its turn (the request names it)', async () => {
    await fx.project.write('.geekagent/commands/fast.md', '---\nmodel: other-model\n---\nBe quick.\n');
    fx.fake.push({ toolCalls: [call('get_current_time', {})] }, { text: 'quick' });
    const run = await fx.run(['-p', '/fast']);
    expect(run.code, run.stderr).toBe(0);
    expect(fx.fake.requests.map((request) => request.body.model)).toEqual(['other-model', 'other-model']);
    fx.fake.push({ text: 'normal' });
    await fx.run(['-p', 'plain', '--continue']);
    expect(fx.fake.requests[2]!.body.model).toBe('fake-model');
  });
});
