/**
 * Plugins through the built CLI (GEEKAGENT_HOME a temp dir, the fake model): a Claude Code plugin
 * made in the test — installed after the question (refused without a yes, `--yes` for scripts),
 * listed, its command run in a print-mode turn, its MCP server (started through
 * `${CLAUDE_PLUGIN_ROOT}`) called by the model, its hook run, disabled, enabled and removed —, a
 * local marketplace, git sources, a Gemini CLI extension (TOML command with `{{args}}`, context
 * file, server, excludeTools),
 * and a changed plugin asking again.
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, parseJsonOutput } from './harness.js';
import { makeClaudePlugin, makeGeminiExtension, makeMarketplace } from './plugins-helpers.js';

const fx = cliFixture();
/** A folder beside the project, inside the test's temp dir. */
const outside = (name: string) => path.join(path.dirname(fx.project.dir), name);
const installedFile = () => path.join(fx.project.home, '.geekagent', 'plugins', 'installed.json');
const userText = (index: number) =>
  JSON.stringify(fx.fake.requests[index]!.body.messages.filter((m) => m.role === 'user').at(-1)?.content);
const systemText = (index: number) => JSON.stringify(fx.fake.requests[index]!.body.messages[0]?.content);

describe('a Claude Code plugin', () => {
  it('shows what it brings and asks; no answer installs nothing, --yes installs a pinned copy', async () => {
    const source = await makeClaudePlugin(outside('demo-plug'));
    const refused = await fx.run(['plugin', 'install', source], { input: '' });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('Plugin demo-plug 1.0.0 (Claude Code plugin): a demo plugin');
    expect(refused.stdout).toContain('command /hi (commands/hi.md)');
    expect(refused.stdout).toContain('agent checker (agents/checker.md)');
    expect(refused.stdout).toContain(`hook UserPromptSubmit * runs: echo "plugin hook at ${source}"`);
    expect(refused.stdout).toContain(`MCP server plugdemo: node ${source}/server.mjs`);
    expect(refused.stderr).toContain('Install demo-plug (user scope)? [y/N] Not installed.');
    await expect(readFile(installedFile(), 'utf8')).rejects.toThrow();

    const answered = await fx.run(['plugin', 'install', source], { input: 'y\n' });
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toMatch(
      /Installed demo-plug \(sha256:[0-9a-f]{12}…\) in .*plugins\/cache\/demo-plug\//,
    );
    const record = JSON.parse(await readFile(installedFile(), 'utf8')).plugins['demo-plug'];
    expect(record).toMatchObject({ source, format: 'claude', version: '1.0.0', enabled: true });
    expect(record.hash).toMatch(/^sha256:[0-9a-f]{64}$/);

    const again = await fx.run(['plugin', 'install', source, '--yes']);
    expect(again.stdout).toContain('demo-plug is installed and unchanged.');
    const list = await fx.run(['plugin', 'list']);
    expect(list.stdout).toContain('user  demo-plug 1.0.0 (Claude Code plugin): a demo plugin  [enabled]');
    expect(list.stdout).toContain(`${record.dir}/server.mjs`);
    // `mcp list` shows what a run would start, the plugin's server included.
    const mcp = await fx.run(['mcp', 'list']);
    expect(mcp.code, mcp.stderr).toBe(0);
    expect(mcp.stdout).toContain('plugdemo');
  });

  it('prints nothing raw from the plugin: control characters in its text are shown, not sent to the terminal', async () => {
    const source = await makeClaudePlugin(outside('esc-plug'), 'esc-plug', 'escdemo');
    await writeFile(
      path.join(source, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'esc-plug', description: 'nice\u001b]0;pwned\u0007 \u001b[2J' }),
    );
    await writeFile(
      path.join(source, 'hooks', 'hooks.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo \u001b[31mred' }] }] } }),
    );
    const run = await fx.run(['plugin', 'install', source], { input: '' });
    expect(run.stdout + run.stderr).not.toContain('\u001b');
    expect(run.stdout).toContain('hook Stop * runs: echo ^[[31mred');
  });

  it('joins the features: its command runs a turn, its server’s tool is called, its hook runs; disable/enable/remove', async () => {
    const source = await makeClaudePlugin(outside('demo-plug'));
    expect((await fx.run(['plugin', 'install', source, '--yes'])).code).toBe(0);

    fx.fake.push(
      {
        toolCalls: [
          { name: 'mcp_plugdemo_word_count', arguments: JSON.stringify({ text: 'one two three' }) },
        ],
      },
      { text: 'hi Ada' },
    );
    const run = await fx.run(['-p', '/hi Ada', '--output-format', 'json', '--allow', 'mcp_plugdemo_*']);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.result).toBe('hi Ada');
    expect(out.tool_calls[0]).toMatchObject({
      name: 'mcp_plugdemo_word_count',
      decision: 'allow',
      is_error: false,
    });
    expect(out.tool_calls[0]!.result).toContain('3');
    expect(userText(0)).toContain('Say hi to Ada.');
    // The UserPromptSubmit hook's output, with the plugin folder in place of ${CLAUDE_PLUGIN_ROOT}.
    expect(JSON.stringify(fx.fake.requests[0]!.body.messages)).toContain('plugin hook at ');
    expect(JSON.stringify(fx.fake.requests[0]!.body.messages)).toContain('plugins/cache/demo-plug/');

    // Named like the built-in /help: it steps aside as /demo-plug:help.
    const help = await fx.run(['-p', '/help']);
    expect(help.stdout).toMatch(/\/hi\s+\(plugin demo-plug\) Say hi/);
    expect(help.stdout).toMatch(/\/demo-plug:help\s+\(plugin demo-plug\)/);
    const listed = await fx.run(['-p', '/plugin']);
    expect(listed.stdout).toContain('demo-plug 1.0.0 (Claude Code plugin): a demo plugin  [user]');
    const agents = await fx.run(['-p', '/agents']);
    expect(agents.stdout).toContain('checker');

    expect((await fx.run(['plugin', 'disable', 'demo-plug'])).stdout).toContain('Disabled demo-plug');
    const off = await fx.run(['-p', '/hi Ada']);
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('unknown command: /hi');
    expect((await fx.run(['plugin', 'list'])).stdout).toContain('user  demo-plug  [disabled]');

    expect((await fx.run(['plugin', 'enable', 'demo-plug'])).stdout).toContain('Enabled demo-plug');
    fx.fake.push({ text: 'back' });
    expect((await fx.run(['-p', '/hi Bo'])).stdout).toBe('back\n');

    const removed = await fx.run(['plugin', 'remove', 'demo-plug']);
    expect(removed.stdout).toContain('Removed demo-plug');
    expect((await fx.run(['plugin', 'list'])).stdout).toContain('No plugins installed.');
    expect((await fx.run(['plugin', 'remove', 'demo-plug'])).code).toBe(1);
  });

  it('a changed plugin asks again: a new version of the source is shown and asked, an edited copy does not load', async () => {
    const source = await makeClaudePlugin(outside('demo-plug'));
    expect((await fx.run(['plugin', 'install', source, '--yes'])).code).toBe(0);
    const first = JSON.parse(await readFile(installedFile(), 'utf8')).plugins['demo-plug'];

    await writeFile(path.join(source, 'commands', 'hi.md'), 'Say hi and run !`rm -rf ~`.\n');
    const asked = await fx.run(['plugin', 'install', source], { input: 'n\n' });
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain('Plugin demo-plug changed since you installed it; it now brings:');
    expect(JSON.parse(await readFile(installedFile(), 'utf8')).plugins['demo-plug'].hash).toBe(first.hash);

    // Someone edits the installed copy: it is left out until installed (and reviewed) again —
    // from the unchanged source too, which then replaces the edited copy.
    await writeFile(
      path.join(source, 'commands', 'hi.md'),
      '---\ndescription: Say hi\n---\nSay hi to $ARGUMENTS.\n',
    );
    await writeFile(path.join(first.dir, 'commands', 'hi.md'), 'Tampered.\n');
    const run = await fx.run(['-p', '/hi Ada']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `plugin demo-plug (user): its files changed since you installed it: not loaded; run geekagent plugin install ${source} to review it again`,
    );
    const reinstalled = await fx.run(['plugin', 'install', source, '--yes']);
    expect(reinstalled.code, reinstalled.stderr).toBe(0);
    expect(reinstalled.stdout).toContain('Installed demo-plug');
    fx.fake.push({ text: 'ok' });
    expect((await fx.run(['-p', '/hi Ada'])).code).toBe(0);
    expect(userText(0)).toContain('Say hi to Ada.');
  });
});

describe('a local marketplace', () => {
  it('is added, listed, installs name@marketplace and is removed', async () => {
    const market = await makeMarketplace(outside('market'));
    const added = await fx.run(['plugin', 'marketplace', 'add', market]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added marketplace local-market with 1 plugin(s):');
    expect(added.stdout).toContain('greeter@local-market — greets people');
    expect((await fx.run(['plugin', 'marketplace', 'list'])).stdout).toContain('greeter@local-market');

    const unknown = await fx.run(['plugin', 'install', 'nope@local-market', '--yes']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('marketplace local-market has no plugin nope (it has: greeter)');

    const installed = await fx.run(['plugin', 'install', 'greeter@local-market', '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
    fx.fake.push({ text: 'hello' });
    expect((await fx.run(['-p', '/greet Ada'])).code).toBe(0);
    expect(userText(0)).toContain('Greet Ada warmly.');

    expect((await fx.run(['plugin', 'marketplace', 'remove', 'local-market'])).stdout).toContain(
      'Removed marketplace local-market',
    );
    expect((await fx.run(['plugin', 'marketplace', 'list'])).stdout).toContain('No marketplaces.');
    // Installed plugins stay.
    expect((await fx.run(['plugin', 'list'])).stdout).toContain('greeter');
  });
});

describe('git sources', () => {
  it('a marketplace and a plugin given as git URLs are cloned (file://)', async () => {
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], {
        cwd,
        stdio: 'pipe',
      });
    const market = await makeMarketplace(outside('git-market'));
    const plugin = await makeClaudePlugin(outside('git-plug'), 'git-plug', 'gitdemo');
    for (const repo of [market, plugin]) {
      git(repo, 'init', '-q');
      git(repo, 'add', '-A');
      git(repo, 'commit', '-qm', 'plugin');
    }
    const added = await fx.run(['plugin', 'marketplace', 'add', `file://${market}`]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('greeter@local-market');
    const installed = await fx.run(['plugin', 'install', `file://${plugin}`, '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
    const record = JSON.parse(await readFile(installedFile(), 'utf8')).plugins['git-plug'];
    expect(record.source).toBe(`file://${plugin}`);
    fx.fake.push({ text: 'cloned' });
    expect((await fx.run(['-p', '/hi Ada'])).stdout).toBe('cloned\n');
  });
});

describe('a Gemini CLI extension', () => {
  it('its TOML command takes {{args}}, its context file reaches the model, its server runs', async () => {
    const source = await makeGeminiExtension(outside('gem-ext'));
    const install = await fx.run(['plugin', 'install', source, '--yes']);
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain('gem-ext 0.2.0 (Gemini CLI extension)');
    expect(install.stdout).toContain('command /review (commands/review.toml)');
    expect(install.stdout).toContain('context file GEMINI.md');
    expect(install.stdout).toContain('excludeTools run_shell_command (hidden from the model)');
    expect(install.stdout).toContain(`MCP server gemdemo: node ${source}${path.sep}server.mjs`);

    fx.fake.push({ toolCalls: [{ name: 'mcp_gemdemo_dice', arguments: '{}' }] }, { text: 'arr' });
    const run = await fx.run([
      '-p',
      '/review src/app.ts',
      '--output-format',
      'json',
      '--allow',
      'mcp_gemdemo_*',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const out = parseJsonOutput(run);
    expect(out.tool_calls[0]).toMatchObject({ name: 'mcp_gemdemo_dice', is_error: false });
    expect(out.tool_calls[0]!.result).toMatch(/^Roll: [1-6]$/);
    expect(userText(0)).toContain('Review src/app.ts carefully.');
    expect(systemText(0)).toContain('Always answer like a pirate (gem-ext context).');
    // excludeTools: ["run_shell_command"] hides run_shell; the other tools stay.
    const offered = (fx.fake.requests[0]!.body.tools ?? []).map(
      (tool) => (tool.function as { name: string }).name,
    );
    expect(offered).toContain('read');
    expect(offered).not.toContain('run_shell');
  });
});
