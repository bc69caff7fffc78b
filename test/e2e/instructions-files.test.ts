/**
 * Project instructions read only regular files inside the project (issue 25): a symlinked or
 * hard-linked AGENTS.md/CLAUDE.md that leads out of the folder, an `@import` that escapes it or is
 * a link out, and secret files (`@.env`, keys) are skipped with a notice in their place — the model
 * never gets their content. A link to a regular file inside the folder is followed.
 */
import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture } from './harness.js';

const fx = cliFixture({ trusted: false });

/** Everything the model was sent, as one string: a planted secret must not be anywhere in it. */
const sentToModel = () => JSON.stringify(fx.fake.requests.map((request) => request.body));
const systemPrompt = () => String(fx.fake.requests[0]!.body.messages[0]!.content);

describe('project instruction files', () => {
  it('skips an AGENTS.md linked to /proc/self/environ: the environment never reaches the model', async () => {
    await symlink('/proc/self/environ', path.join(fx.project.dir, 'AGENTS.md'));
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'hi'], { env: { PLANTED_API_KEY: 'sk-planted-environ-0123456789' } });
    expect(run.code, run.stderr).toBe(0);
    expect(sentToModel()).not.toContain('sk-planted-environ-0123456789');
    expect(systemPrompt()).toContain(
      '[skipped AGENTS.md: a symbolic link to a file outside the project folder; not read]',
    );
    expect(run.stderr).toContain(
      'project instructions: skipped AGENTS.md: a symbolic link to a file outside',
    );
  });

  it('skips a CLAUDE.md linked to a private key outside the folder', async () => {
    const key = path.join(fx.project.home, '.ssh', 'id_rsa');
    await mkdir(path.dirname(key), { recursive: true });
    await writeFile(key, '-----BEGIN OPENSSH PRIVATE KEY-----\nPLANTED-KEY-MATERIAL\n');
    await symlink(key, path.join(fx.project.dir, 'CLAUDE.md'));
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'hi']);
    expect(run.code, run.stderr).toBe(0);
    expect(sentToModel()).not.toContain('PLANTED-KEY-MATERIAL');
    expect(systemPrompt()).toContain(
      '[skipped CLAUDE.md: a symbolic link to a file outside the project folder',
    );
  });

  it('skips an AGENTS.md hard-linked to a file outside the folder', async () => {
    const outside = path.join(fx.project.home, 'secret.txt');
    await writeFile(outside, 'PLANTED-HARD-LINK-SECRET');
    await link(outside, path.join(fx.project.dir, 'AGENTS.md'));
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'hi']);
    expect(run.code, run.stderr).toBe(0);
    expect(sentToModel()).not.toContain('PLANTED-HARD-LINK-SECRET');
    expect(systemPrompt()).toContain('[skipped AGENTS.md: a file with 2 hard links');
  });

  it('follows a link to a regular file inside the folder, but not one to .env', async () => {
    await mkdir(path.join(fx.project.dir, '.git'));
    await fx.project.write('docs/agents.md', 'LINKED-RULE: inside the folder');
    await symlink('docs/agents.md', path.join(fx.project.dir, 'CLAUDE.md'));
    await fx.project.write('pkg/.env', 'API_TOKEN=PLANTED-DOTENV-VIA-LINK');
    await symlink('.env', path.join(fx.project.dir, 'pkg', 'AGENTS.md'));
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'hi', '--cwd', 'pkg']);
    expect(run.code, run.stderr).toBe(0);
    expect(systemPrompt()).toContain('LINKED-RULE: inside the folder');
    expect(sentToModel()).not.toContain('PLANTED-DOTENV-VIA-LINK');
    expect(systemPrompt()).toContain('[skipped pkg/AGENTS.md: a secret file');
  });

  it('never inlines an @import that is a secret, escapes the folder, or is a link out', async () => {
    await mkdir(path.join(fx.project.dir, '.git'));
    await fx.project.write('.env', 'OPENAI_API_KEY=PLANTED-DOTENV-IMPORT');
    await fx.project.write('certs/server.key', 'PLANTED-PEM-IMPORT');
    await fx.project.write('docs/ok.md', 'IMPORTED-RULE: fine');
    await writeFile(path.join(fx.project.home, 'outside.md'), 'PLANTED-ESCAPE-IMPORT');
    await symlink(path.join(fx.project.home, 'outside.md'), path.join(fx.project.dir, 'docs', 'notes.md'));
    await writeFile(path.join(fx.project.home, 'hard.md'), 'PLANTED-HARD-IMPORT');
    await link(path.join(fx.project.home, 'hard.md'), path.join(fx.project.dir, 'docs', 'hard.md'));
    await fx.project.write(
      'AGENTS.md',
      [
        'Config: @.env',
        'TLS: @certs/server.key',
        'Style: @docs/ok.md',
        'Notes: @docs/notes.md',
        'Up: @../home/outside.md',
        'Hard: @docs/hard.md',
      ].join('\n'),
    );
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'hi']);
    expect(run.code, run.stderr).toBe(0);
    const sent = sentToModel();
    for (const planted of ['DOTENV-IMPORT', 'PEM-IMPORT', 'ESCAPE-IMPORT', 'HARD-IMPORT'])
      expect(sent).not.toContain(`PLANTED-${planted}`);
    const system = systemPrompt();
    expect(system).toContain('IMPORTED-RULE: fine');
    expect(system).toContain('@.env [skipped .env: a secret file');
    expect(system).toContain('@certs/server.key [skipped certs/server.key: a secret file');
    expect(system).toContain('@docs/notes.md [skipped docs/notes.md: a symbolic link to a file outside');
    expect(system).toContain('@../home/outside.md [skipped ../home/outside.md: outside the project folder');
    expect(system).toContain('@docs/hard.md [skipped docs/hard.md: a file with 2 hard links');
    expect(run.stderr).toContain('project instructions: skipped .env: a secret file');
  });
});
