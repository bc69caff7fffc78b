/**
 * The launcher turns on Node's own compile cache (module.enableCompileCache) in the user's state
 * folder — GEEKAGENT_HOME's, never the project's: a print run leaves the compiled code of the bundles
 * it ran, the next run answers the same with it in place, GEEKAGENT_CODE_CACHE=off keeps the folder
 * out, and a corrupted cache costs a recompile, never the run (Node checks each entry's checksum).
 * The cache holds only what V8 compiles with a file, so the build has the functions a print turn
 * calls compiled that way (scripts/bundle-plugins/start-profile.mjs, eager-functions.mjs).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstCallCompiles, logFunctionEvents } from './first-call-compiles.js';
import { CLI, cliArgs, cliFixture, testEnv } from './harness.js';

const fx = cliFixture();
const cacheDir = () => path.join(fx.project.home, '.geekagent', 'compile-cache');
/** Every file of the cache (Node keeps one folder per Node version and flags). */
const cacheFiles = (): string[] =>
  readdirSync(cacheDir(), { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(cacheDir(), name))
    .filter((file) => statSync(file).isFile())
    .sort();

describe("Node's compile cache", () => {
  it('a print run keeps its compiled code in the state folder, and the next run answers with it in place', async () => {
    fx.fake.push({ text: 'first answer' });
    const first = await fx.run(['-p', 'hi']);
    expect(first.stdout).toBe('first answer\n');
    const files = cacheFiles();
    // The core and lib/openai.cjs (the launcher itself is compiled before the cache is on).
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(existsSync(path.join(fx.project.dir, '.geekagent', 'compile-cache'))).toBe(false);
    const stamps = files.map((file) => statSync(file).mtimeMs);

    fx.fake.push({ text: 'second answer' });
    const second = await fx.run(['-p', 'hi again']);
    expect(second.stderr).toBe('');
    expect(second.stdout).toBe('second answer\n');
    // Accepted as they were: a rejected entry would have been written anew.
    expect(cacheFiles()).toEqual(files);
    expect(files.map((file) => statSync(file).mtimeMs)).toEqual(stamps);
  });

  it('GEEKAGENT_CODE_CACHE=off compiles every time and writes nothing', async () => {
    fx.fake.push({ text: 'uncached' });
    const run = await fx.run(['-p', 'hi'], { env: { GEEKAGENT_CODE_CACHE: 'off' } });
    expect(run.stdout).toBe('uncached\n');
    expect(existsSync(cacheDir())).toBe(false);
  });

  it('a cache with flipped bytes is not used: the start answers and the entry is written anew', async () => {
    fx.fake.push({ text: 'first answer' });
    await fx.run(['-p', 'hi']);
    const corrupted = cacheFiles().map((file) => {
      const bytes = readFileSync(file);
      // Spread over the data, as a failing disk or a bad copy would.
      for (let i = 0; i < 16; i++) {
        const at = Math.floor((bytes.length * (i + 0.5)) / 16);
        bytes[at] = (bytes[at] as number) ^ 0xff;
      }
      writeFileSync(file, bytes);
      return [file, bytes] as const;
    });

    fx.fake.push({ text: 'second answer' });
    const second = await fx.run(['-p', 'hi again']);
    expect(second.stderr).toBe('');
    expect(second.stdout).toBe('second answer\n');
    expect(second.code).toBe(0);
    for (const [file, bytes] of corrupted) expect(readFileSync(file).equals(bytes), file).toBe(false);
  });

  it('the functions a print turn calls are compiled with the bundles, so the cache can hold them', async () => {
    fx.fake.push({ text: 'profiled' });
    const log = path.join(fx.project.home, 'v8.log');
    // The harness's run, with V8's function events logged (options NODE_OPTIONS does not take).
    const child = spawn(process.execPath, [...logFunctionEvents(log), CLI, ...cliArgs(['-p', 'hi'], true)], {
      cwd: fx.project.dir,
      env: testEnv({ project: fx.project, modelUrl: fx.fake.url }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const [code] = await once(child, 'close');
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'profiled\n' });
    const { compiled, couldBeEager } = firstCallCompiles(log);
    // Compiled at their first call: what cannot be written in parentheses (class methods,
    // constructors, accessors), and no function the build could have had compiled with the file
    // (a few may differ from the build's own profiled turn: this test's model, home and project).
    expect(compiled.get('core.cjs')).toBeGreaterThan(100);
    for (const [file, count] of couldBeEager) expect(count, file).toBeLessThan(10);
  });
});
