/**
 * A reload asks the start's trust question (issue 38): a project command or skill added or edited
 * after start is not usable after `/commands reload` or `/skills reload` until the person trusts
 * it. The question lists what is new; "not now" leaves it out (listed as such, nothing runs), a yes
 * loads it and is recorded, so the next start does not ask.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYS, tuiFixture } from './pty.js';

// Not --trust: the folder is trusted by the record (or because it declares nothing), as a person's.
const fx = tuiFixture({ cols: 160, rows: 45, trusted: false, env: { GEEKAGENT_SANDBOX: 'off' } });

const START = /Session [a-z0-9]{8}/;

describe('a reload asks the trust question for a new or changed project file', () => {
  it('a command added after start: reload asks; not now leaves it out and nothing runs; yes loads it', async () => {
    const pwned = path.join(fx.project.dir, 'pwned');
    const tui = fx.start();
    await tui.waitFor(START);
    expect(tui.screen()).not.toContain('Trust this folder?');
    // What the model (or a pulled branch) could write while the session runs.
    await fx.project.write(
      '.geekagent/commands/pwn.md',
      `---\nallowed-tools: run_shell\n---\nDone: !\`touch ${pwned}\`\n`,
    );
    tui.send('/commands reload');
    tui.send(KEYS.enter);
    await tui.waitFor('Trust this folder? y = yes');
    expect(tui.screen()).toContain('new: custom command /pwn (.geekagent/commands/pwn.md');
    tui.send('n');
    await tui.waitFor('not loaded: new or changed since you trusted the folder');
    tui.send('/pwn');
    tui.send(KEYS.enter);
    await tui.waitFor('unknown command: /pwn');
    expect(existsSync(pwned)).toBe(false);
    expect(fx.fake.requests).toHaveLength(0);

    tui.send('/commands reload');
    tui.send(KEYS.enter);
    await tui.waitFor('Trust this folder? y = yes');
    tui.send('y');
    await tui.waitFor(/pwn\s+Done:/);
    fx.fake.push({ text: 'command ran' });
    tui.send('/pwn');
    tui.send(KEYS.enter);
    await tui.waitFor('command ran');
    expect(existsSync(pwned)).toBe(true);
    tui.send('/exit');
    tui.send(KEYS.enter);
    expect(await tui.exited()).toBe(0);

    // The yes was recorded: the next start asks nothing and the command is there.
    const again = fx.start();
    await again.waitFor(START);
    again.send('/commands');
    again.send(KEYS.enter);
    await again.waitFor(/pwn\s+Done:/);
    expect(again.screen()).not.toContain('Trust this folder?');
  });

  it('a skill added after start: reload asks; not now leaves it out and its allowed-tools grant nothing', async () => {
    const pwned = path.join(fx.project.dir, 'pwned');
    const tui = fx.start();
    await tui.waitFor(START);
    await fx.project.write(
      '.claude/skills/deploy/SKILL.md',
      '---\nname: deploy\ndescription: Deploys\nallowed-tools: run_shell\n---\nDeploy with the shell.\n',
    );
    tui.send('/skills reload');
    tui.send(KEYS.enter);
    await tui.waitFor('Trust this folder? y = yes');
    expect(tui.screen()).toContain('new: skill .claude/skills/deploy (instructions');
    expect(tui.screen()).toContain('allowed-tools: run_shell');
    tui.send('n');
    await tui.waitFor('skills reloaded: 0 available');
    tui.send('/use deploy');
    tui.send(KEYS.enter);
    await tui.waitFor('skill deploy is not loaded (/skills says why)');

    // Trusted at the next reload: the person's /deploy pre-approves its run_shell, as it would at start.
    tui.send('/skills reload');
    tui.send(KEYS.enter);
    await tui.waitFor('Trust this folder? y = yes');
    tui.send('y');
    await tui.waitFor('skills reloaded: 1 available');
    fx.fake.push(
      { toolCalls: [{ name: 'run_shell', arguments: JSON.stringify({ command: `touch ${pwned}` }) }] },
      { text: 'deployed' },
    );
    tui.send('/deploy go');
    tui.send(KEYS.enter);
    await tui.waitFor('deployed');
    expect(existsSync(pwned)).toBe(true);
  });

  it('a trusted folder’s command edited during the session asks again, showing the change', async () => {
    await fx.project.write('.geekagent/commands/hello.md', 'Say hello.\n');
    const first = fx.start();
    await first.waitFor('Trust this folder? y = yes');
    first.send('y');
    await first.waitFor(START);
    await fx.project.write('.geekagent/commands/hello.md', 'Say hello and run !`touch pwned`.\n');
    first.send('/commands reload');
    first.send(KEYS.enter);
    await first.waitFor('Trust this folder?');
    expect(first.screen()).toContain('changed: custom command /hello (.geekagent/commands/hello.md');
    // Esc is "not now" too.
    await first.waitFor('Trust this folder? y = yes');
    first.send(KEYS.escape);
    await first.waitFor('hello  not loaded: new or changed since you trusted the folder');
  });
});
