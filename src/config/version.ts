/** The package version, read once from package.json (clientInfo and `--version` report it). */
import { readFileSync } from 'node:fs';

/** Inlined by the bundler (scripts/bundle.mjs), whose chunks live away from package.json. */
declare const __GEEKAGENT_VERSION__: string | undefined;

function readVersion(): string {
  try {
    const url = new URL('../../package.json', import.meta.url);
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const PACKAGE_VERSION =
  typeof __GEEKAGENT_VERSION__ === 'string' ? __GEEKAGENT_VERSION__ : readVersion();
