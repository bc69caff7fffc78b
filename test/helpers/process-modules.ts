/**
 * The real src/process modules as plain .js in a temp folder (types stripped, nothing else), so a
 * spawned `node` harness — which cannot load .ts — runs the same code the agent does.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { transform } from 'esbuild';

const SRC = path.resolve(import.meta.dirname, '../../src/process');

export async function transpileProcessModules(): Promise<string> {
  const modules = await mkdtemp(path.join(os.tmpdir(), 'geekagent-process-'));
  for (const name of ['group-tracker', 'reaper', 'lifecycle']) {
    const source = await readFile(path.join(SRC, `${name}.ts`), 'utf8');
    const { code } = await transform(source, { loader: 'ts', format: 'esm', target: 'es2022' });
    await writeFile(path.join(modules, `${name}.js`), code);
  }
  return modules;
}
