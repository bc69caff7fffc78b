/**
 * `@path` mentions in print mode against the fake model: a file's text reaches the request, a
 * folder goes as its listing, a .gitignore'd file is attached with a note, and a secret file, a
 * binary file, a path outside the root and a link out of it are refused with a note — their
 * bytes never reach the model. A word that names no file stays as typed, and `@server:uri` stays
 * an MCP resource mention.
 */
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFixture, FIXTURE_SERVERS } from './harness.js';

const fx = cliFixture();

/** The text of the first request's user message (string or the text parts of a list). */
const userText = (index = 0): string => {
  const message = fx.fake.requests[index]!.body.messages.find((m) => m.role === 'user');
  const content = message?.content;
  if (typeof content === 'string') return content;
  return (content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('\n');
};
const wholeRequest = (index = 0): string => JSON.stringify(fx.fake.requests[index]!.body);

describe('@path mentions in print mode', () => {
  it('attaches a mentioned file: its text reaches the model, the person sees a notice', async () => {
    await fx.project.write('src/app.ts', 'export const answer = 42;\nconsole.log(answer);\n');
    fx.fake.push({ text: 'explained' });
    const run = await fx.run(['-p', 'explain @src/app.ts, please']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('attached @src/app.ts (2 lines)');
    const text = userText();
    expect(text).toContain('explain @src/app.ts, please');
    expect(text).toContain('Attached file @src/app.ts (2 lines):');
    expect(text).toContain('export const answer = 42;');
  });

  it('attaches a folder as its listing, leaving out what .gitignore ignores', async () => {
    await fx.project.write('.gitignore', 'build/\n*.log\n');
    await fx.project.write('src/a.ts', 'a\n');
    await fx.project.write('src/lib/b.ts', 'b\n');
    await fx.project.write('src/debug.log', 'noise\n');
    await fx.project.write('src/build/out.js', 'compiled\n');
    fx.fake.push({ text: 'listed' });
    const run = await fx.run(['-p', 'what is in @src/']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('attached @src/ (2 entries; 2 ignored left out)');
    const text = userText();
    expect(text).toContain('Attached folder @src/');
    expect(text).toContain('a.ts\nlib/');
    expect(text).not.toContain('debug.log');
    expect(text).not.toContain('build/');
  });

  it('attaches a .gitignore’d file the person names, with a note', async () => {
    await fx.project.write('.gitignore', 'dist/\n');
    await fx.project.write('dist/bundle.js', 'var bundled = 1;\n');
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'look at @dist/bundle.js']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('attached @dist/bundle.js (1 line; ignored by .gitignore)');
    expect(userText()).toContain('var bundled = 1;');
  });

  it('refuses a secret file, GeekAgent state, a binary file, a path outside the root and a link out', async () => {
    await fx.project.write('.env', 'OPENAI_API_KEY=sk-very-secret-value\n');
    await fx.project.write('id_rsa', 'PRIVATE-KEY-BYTES\n');
    await fx.project.write('.geekagent/notes.txt', 'STATE-TEXT\n');
    await writeFile(path.join(fx.project.dir, 'blob.bin'), Buffer.from([1, 2, 0, 3, 0x42, 0x49, 0x4e]));
    const outside = path.join(fx.project.dir, '..', 'outside.txt');
    await writeFile(outside, 'OUTSIDE-TEXT\n');
    await symlink(outside, path.join(fx.project.dir, 'link.txt'));
    fx.fake.push({ text: 'ok' });
    const run = await fx.run([
      '-p',
      'read @.env @id_rsa @.geekagent/notes.txt @blob.bin @../outside.txt @link.txt',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('not attached: @.env — a secret file');
    expect(run.stderr).toContain('not attached: @id_rsa — a secret file');
    expect(run.stderr).toContain("not attached: @.geekagent/notes.txt — GeekAgent's state folder");
    expect(run.stderr).toContain('not attached: @blob.bin — a binary file');
    expect(run.stderr).toContain('not attached: @../outside.txt — outside the project folder');
    expect(run.stderr).toContain('not attached: @link.txt — a symbolic link out of the project folder');
    const body = wholeRequest();
    for (const secret of ['sk-very-secret-value', 'PRIVATE-KEY-BYTES', 'STATE-TEXT', 'OUTSIDE-TEXT'])
      expect(body).not.toContain(secret);
    // The model is told why, so it does not go looking.
    expect(userText()).toContain('[@blob.bin not attached: a binary file');
  });

  it('cuts a large file with a note, and leaves words that name no file as typed', async () => {
    const line = `${'x'.repeat(99)}\n`;
    await fx.project.write('big.txt', line.repeat(2000));
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'ask @alice about @big.txt']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/attached @big\.txt \(\d+ lines; first 100 KB of 196 KB\)/);
    expect(run.stderr).not.toContain('@alice');
    const text = userText();
    expect(text).toContain('ask @alice about @big.txt');
    expect(text).toContain('[cut at 100 KB; read the rest with the read tool]');
    expect(text.length).toBeLessThan(110 * 1024);
  });

  it('keeps @server:uri an MCP resource mention beside a file mention', async () => {
    await fx.project.mcpServers({
      notes: {
        command: 'node',
        args: [path.join(FIXTURE_SERVERS, 'resources-marker.mjs'), path.join(fx.project.home, 'started')],
      },
    });
    // A file at the path the mention spells must not turn the resource mention into a file mention.
    await fx.project.write('notes:notes:/readme', 'FILE-NOT-RESOURCE\n');
    await fx.project.write('src/app.ts', 'const app = 1;\n');
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'compare @notes:notes://readme with @src/app.ts']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('attached @notes:notes://readme');
    expect(run.stderr).toContain('attached @src/app.ts (1 line)');
    const text = userText();
    expect(text).toContain('Attached resource @notes:notes://readme:\n[resource notes://readme]\nthe notes');
    expect(text).toContain('const app = 1;');
    expect(text).not.toContain('FILE-NOT-RESOURCE');
  });
});
