/** Where the repository's parts are, for tests of every tier (no check, no side effect). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = path.join(REPO_ROOT, 'dist', 'cli', 'main.js');
export const DEMO_SERVER = path.join(REPO_ROOT, 'examples', 'demo-server.mjs');
export const FIXTURE_SERVERS = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp');
