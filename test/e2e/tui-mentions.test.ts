/**
 * `@` in the TUI: Tab completes files and folders under the root (a .gitignore'd folder is not
 * offered), as far as the candidates agree with the rest listed under the input line, and MCP
 * resources as `@server:uri`; the sent message carries the file and the transcript says so.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SERVERS } from './harness.js';
import { KEYS, tuiFixture } from './pty.js';

const fx = tuiFixture({ cols: 110, rows: 30 });

describe('@ completion in the TUI', () => {
  it('completes files and folders, lists several, leaves ignored ones out, and attaches the file', async () => {
    await fx.project.write('.gitignore', 'src/gen/\n');
    await fx.project.write('src/app.ts', 'export const APP = 1;\n');
    await fx.project.write('src/api.ts', 'export const API = 2;\n');
    await fx.project.write('src/lib/util.ts', 'u\n');
    await fx.project.write('src/gen/out.ts', 'generated\n');
    await fx.project.mcpServers({
      notes: {
        command: 'node',
        args: [path.join(FIXTURE_SERVERS, 'resources-marker.mjs'), path.join(fx.project.home, 'started')],
      },
    });
    fx.fake.push({ text: 'explained' });
    const tui = fx.start();
    await tui.waitFor(/MCP\s+notes\(1\)/, 20_000);

    tui.send('explain @sr\t');
    await tui.waitFor('› explain @src/');
    // Tab again on the folder: its entries, without the ignored one.
    tui.send('\t');
    await tui.waitFor('@src/api.ts  @src/app.ts  @src/lib/');
    expect(tui.screen()).not.toContain('@src/gen');
    // Two candidates agree as far as `@src/ap`.
    tui.send('a\t');
    await tui.waitFor('› explain @src/ap');
    await tui.waitFor('@src/api.ts  @src/app.ts');
    tui.send('p\t');
    await tui.waitFor('› explain @src/app.ts');
    // An MCP resource completes as @server:uri.
    tui.send('and @no\t');
    await tui.waitFor('› explain @src/app.ts and @notes:notes://readme');
    tui.send(KEYS.enter);
    await tui.waitFor('attached @src/app.ts (1 line)');
    await tui.waitFor('attached @notes:notes://readme');
    await tui.waitFor('explained');
    const user = fx.fake.requests[0]!.body.messages.find((m) => m.role === 'user');
    expect(String(user?.content)).toContain('export const APP = 1;');
    expect(String(user?.content)).toContain('the notes');
  });

  it('sees a .gitignore edited between two Tabs, and at the next turn', async () => {
    await fx.project.write('.gitignore', 'src/gen/\n');
    await fx.project.write('src/app.ts', 'a\n');
    await fx.project.write('src/gen/out.ts', 'generated\n');
    // Replies no other text on screen contains (the header says "MCP-first").
    fx.fake.push({ text: 'turn one answered' }, { text: 'turn two answered' });
    const tui = fx.start();
    // The panel's mode row comes with the session: Tab completes from then on.
    await tui.waitFor(/Mode\s+default/);
    // Only app.ts is left: it is taken whole.
    tui.send('@src/\t');
    await tui.waitFor('› @src/app.ts');
    // The rule is gone: the next Tab offers both.
    await fx.project.write('.gitignore', '# nothing ignored now\n');
    tui.send('@src/\t');
    await tui.waitFor('@src/app.ts  @src/gen/');
    tui.send('gen/out.ts');
    await tui.waitFor('› @src/app.ts @src/gen/out.ts');
    tui.send(KEYS.enter);
    await tui.waitFor('turn one answered');
    expect(tui.screen()).not.toContain('ignored by .gitignore');
    // Ignored again: the next turn's mention says so.
    await fx.project.write('.gitignore', 'src/gen/\n');
    tui.send('@src/gen/out.ts');
    await tui.waitFor('› @src/gen/out.ts');
    tui.send(KEYS.enter);
    await tui.waitFor('attached @src/gen/out.ts (1 line; ignored by .gitignore)');
    await tui.waitFor('turn two answered');
    const sent = fx.fake.requests
      .at(-1)!
      .body.messages.filter((m) => m.role === 'user')
      .at(-1);
    expect(String(sent?.content)).toContain('ignored by .gitignore');
  });
});
