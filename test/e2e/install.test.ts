/**
 * Installing it as a tool: `npm pack`'s tarball, installed globally into a scratch prefix, gives a
 * `geekagent` on PATH that runs with no build step and no dev dependencies (the tarball holds the
 * built dist/; npm installs only the production dependencies, from its cache where it has them).
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel } from '../fixtures/fake-model.js';
import { createProject, type Project, REPO_ROOT, testEnv } from './harness.js';

const run = promisify(execFile);

describe('installed from the packed tarball', () => {
  let scratch: Project;
  let bin: string;

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
  }, 180_000);
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
});
