/**
 * Installing it as a tool: `npm pack`'s tarball, installed globally into a scratch prefix, gives a
 * `geekagent` on PATH that runs with no build step and no dev dependencies (the tarball holds the
 * built dist/; npm installs only the production dependencies, from its cache where it has them).
 * Installed into a scratch project as a dependency, it is the library: `import { query } from
 * "geekagent"` runs a turn (loading nothing of the TUI) and its shipped types check a .ts file.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel } from '../fixtures/fake-model.js';
import { createProject, type Project, REPO_ROOT, testEnv } from './harness.js';

const run = promisify(execFile);

describe('installed from the packed tarball', () => {
  let scratch: Project;
  let bin: string;
  let library: string;

  beforeAll(async () => {
    scratch = await createProject();
    const packed = path.join(scratch.home, 'packed');
    await mkdir(packed);
    // The harness has checked that dist/ is built from these sources: pack it as it is (the
    // package's `prepare` would rebuild it).
    await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packed], {
      cwd: REPO_ROOT,
    });
    const [tarball] = await readdir(packed);
    const prefix = path.join(scratch.home, 'prefix');
    // The person's own npm (its cache included): only production dependencies, no scripts to run.
    await run(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--prefer-offline',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        path.join(packed, tarball!),
      ],
      { cwd: scratch.home, timeout: 150_000 },
    );
    bin = path.join(prefix, 'bin');
    // The same tarball as a dependency of a scratch project (for the library).
    library = path.join(scratch.home, 'library-user');
    await mkdir(library);
    await writeFile(
      path.join(library, 'package.json'),
      JSON.stringify({ name: 'library-user', private: true }),
    );
    await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        path.join(packed, tarball!),
      ],
      { cwd: library, timeout: 150_000 },
    );
  }, 330_000);
  afterAll(() => scratch?.cleanup());

  const onPath = (extra: Record<string, string> = {}) => ({
    ...testEnv({ project: scratch, env: extra }),
    PATH: `${bin}${path.delimiter}${process.env.PATH}`,
  });

  it('holds the built CLI and none of the sources, tests or dev dependencies', async () => {
    const installed = path.join(bin, '..', 'lib', 'node_modules', 'geekagent');
    const top = await readdir(installed);
    expect(top).toContain('dist');
    expect(top).not.toContain('src');
    expect(top).not.toContain('test');
    const deps = await readdir(path.join(installed, 'node_modules')).catch(() => [] as string[]);
    const hoisted = await readdir(path.join(bin, '..', 'lib', 'node_modules'));
    for (const dev of ['vitest', 'typescript', 'esbuild', '@biomejs']) {
      expect(deps).not.toContain(dev);
      expect(hoisted).not.toContain(dev);
    }
  });

  it('answers --version from PATH', async () => {
    const { stdout } = await run('geekagent', ['--version'], { cwd: scratch.dir, env: onPath() });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('runs a -p turn from PATH against the model', async () => {
    const fake = await startFakeModel();
    try {
      fake.push({ text: 'Installed and answering.' });
      const { stdout } = await run('geekagent', ['-p', 'are you there?'], {
        cwd: scratch.dir,
        env: onPath({ OPENAI_BASE_URL: fake.url }),
      });
      expect(stdout).toBe('Installed and answering.\n');
      expect(fake.requests).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });

  it('is a library: import { query } from "geekagent" runs a turn with canUseTool, without the TUI', async () => {
    const fake = await startFakeModel();
    try {
      fake.push(
        { toolCalls: [{ name: 'write', arguments: JSON.stringify({ path: 'lib.txt', content: 'hi\n' }) }] },
        { text: 'Written from the library.' },
      );
      await writeFile(path.join(library, 'run.mjs'), LIBRARY_SCRIPT);
      const { stdout } = await run(process.execPath, ['run.mjs', scratch.dir], {
        cwd: library,
        env: testEnv({ project: scratch, modelUrl: fake.url }),
      });
      const report = JSON.parse(stdout) as {
        types: string[];
        asked: string[];
        result: string;
        loaded: string[];
      };
      expect(report.types).toEqual(['system', 'assistant', 'user', 'assistant', 'result']);
      expect(report.asked).toEqual(['write']);
      expect(report.result).toBe('Written from the library.');
      // The watch sees what loads (the installed entry, the model SDK) — and no Ink or React.
      expect(report.loaded.some((url) => url.includes('/node_modules/geekagent/dist/library/index.js'))).toBe(
        true,
      );
      expect(report.loaded.some((url) => url.includes('/node_modules/openai/'))).toBe(true);
      expect(
        report.loaded.filter((url) => /\/node_modules\/(ink|react|react-reconciler)\//.test(url)),
      ).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it("ships the library's types: a .ts file using query() type-checks, a wrong option does not", async () => {
    await writeFile(path.join(library, 'use.ts'), TYPED_USE);
    await writeFile(
      path.join(library, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          types: ['node'],
          typeRoots: [path.join(REPO_ROOT, 'node_modules', '@types')],
        },
        files: ['use.ts'],
      }),
    );
    const tsc = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsc');
    const checked = await run(tsc, ['-p', 'tsconfig.json'], { cwd: library }).then(
      () => 'ok',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(checked).toBe('ok');
  });
});

/** The scratch project's script: a turn through the installed package, with a module watch. */
const LIBRARY_SCRIPT = `
import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    loaded.push(resolved.url);
    return resolved;
  },
});
const { query } = await import('geekagent');
const types = [];
const asked = [];
let result;
for await (const message of query({
  prompt: 'write lib.txt',
  options: {
    cwd: process.argv[2],
    trust: true,
    canUseTool: async (name) => {
      asked.push(name);
      return { behavior: 'allow' };
    },
  },
})) {
  types.push(message.type);
  if (message.type === 'result') result = message.result;
}
process.stdout.write(JSON.stringify({ types, asked, result, loaded }));
`;

/** Uses the shipped types; the expect-error line fails the check if the types were loose. */
const TYPED_USE = `
import { query, type CanUseTool, type QueryMessage } from 'geekagent';

const canUseTool: CanUseTool = async (name, input) =>
  name === 'write' && typeof input.path === 'string' ? { behavior: 'allow' } : { behavior: 'deny', message: 'no' };

export async function main(): Promise<string | undefined> {
  const run = query({ prompt: 'hi', options: { cwd: '.', canUseTool, permissionMode: 'acceptEdits' } });
  for await (const message of run) {
    const seen: QueryMessage = message;
    if (seen.type === 'result') return seen.result;
    if (seen.type === 'assistant') await run.interrupt();
  }
  // @ts-expect-error: permissionMode takes the modes only
  query({ prompt: 'hi', options: { permissionMode: 'yolo' } });
  return undefined;
}
`;
