/**
 * Starting the built CLI the first time (issue 41): a positional prompt (print mode when stdin or
 * stdout is not a terminal; the TUI case is in tui-first-start.test.ts), `geekagent help <command>`,
 * and help texts that list what each command takes.
 */
import { describe, expect, it } from 'vitest';
import { cliFixture } from './harness.js';

const fx = cliFixture();

describe('a positional prompt', () => {
  it('answers it in print mode when stdout is not a terminal', async () => {
    fx.fake.push({ text: 'Fixed it.' });
    const run = await fx.run(['fix the bug']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Fixed it.\n');
    expect(JSON.stringify(fx.fake.requests[0]!.body.messages)).toContain('fix the bug');
  });

  it('is print mode\'s prompt with a bare -p, and refused beside -p "<prompt>"', async () => {
    fx.fake.push({ text: 'From the positional prompt.' });
    const bare = await fx.run(['what now', '-p']);
    expect(bare.stdout, bare.stderr).toBe('From the positional prompt.\n');

    const both = await fx.run(['-p', 'one', 'two']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('two prompts: -p "one" and "two"; give one');
    expect(fx.fake.requests).toHaveLength(1);
  });

  it('a second word is still an error, naming the quotes', async () => {
    const run = await fx.run(['fix', 'the', 'bug']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/too many arguments/);
    expect(run.stderr).toContain('quote a prompt of several words: geekagent "fix the bug"');
    expect(fx.fake.requests).toHaveLength(0);
  });
});

describe('help', () => {
  it('geekagent help mcp lists the mcp commands', async () => {
    const run = await fx.run(['help', 'mcp']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: geekagent mcp');
    for (const command of [
      'list',
      'get <name>',
      'add [options] <name> <target...>',
      'call <server>',
      'serve',
    ])
      expect(run.stdout).toContain(command);
  });

  it('geekagent --help shows the prompt argument, the help command and models.json under --model', async () => {
    const run = await fx.run(['--help']);
    expect(run.code, run.stderr).toBe(0);
    const flat = run.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain('Usage: geekagent [options] [command] [prompt]');
    expect(flat).toMatch(/prompt a first message: the interactive session opens with it sent/);
    expect(flat).toMatch(/--model <name> model: a name from ~\/\.geekagent\/models\.json/);
    expect(flat).toContain('help [command] show help for a command');
  });

  it('mcp serve --help lists every option it takes, the top-level ones included', async () => {
    const run = await fx.run(['mcp', 'serve', '--help']);
    expect(run.code, run.stderr).toBe(0);
    for (const option of [
      '--root <dir>',
      '--allow <pattern>',
      '--deny <pattern>',
      '--allow-protected <path>',
      '--cwd <dir>',
      '--trust',
      '--sandbox <mode>',
    ])
      expect(run.stdout).toContain(option);
    // Only those: the chat's own flags are not serve's.
    expect(run.stdout).not.toContain('--output-format');
    expect(run.stdout).not.toContain('--model');
  });

  it('argument names carry descriptions', async () => {
    const call = await fx.run(['mcp', 'call', '--help']);
    expect(call.stdout.replace(/\s+/g, ' ')).toMatch(
      /Arguments: server the server name, as in mcp\.json tool the tool's name as the server gives it/,
    );
    for (const command of ['get', 'remove', 'approve', 'login', 'logout', 'add', 'add-json']) {
      const run = await fx.run(['mcp', command, '--help']);
      expect(run.stdout, command).toMatch(/Arguments:\n {2}(name|server) +\S/);
    }
  });

  it('trust --help names everything a folder can declare', async () => {
    const run = await fx.run(['trust', '--help']);
    const flat = run.stdout.replace(/\s+/g, ' ');
    for (const word of [
      'MCP servers',
      'allow rules',
      'hooks',
      'custom commands',
      'skills',
      'agents',
      'memory',
      '.env',
    ])
      expect(flat).toContain(word);
  });
});
