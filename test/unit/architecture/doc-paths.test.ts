/**
 * docs/architecture.md names files by path; after a move the page must follow. Every path the page
 * names in backticks or in its code blocks — `folder/file.ts` under src/, or a path under test/,
 * scripts/, bench/ or src/ itself — must exist in the tree. (Bare file names and the state files'
 * places, `.geekagent/…`, `~/…`, and the build's `dist/` and `lib/` are not checked.)
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/paths.js';

const PAGE = path.join(REPO_ROOT, 'docs', 'architecture.md');
/** A source path as the page writes it: folders and a file name with a code extension. */
const PATH = /(?<![\w./~<>-])((?:[a-z][\w-]*\/)+[\w.-]+\.(?:tsx?|mjs|cjs))(?![\w/])/g;
const REPO_FOLDERS = ['src/', 'test/', 'scripts/', 'bench/'];

/** The paths the text names, each as the repository path it must be. */
function namedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(PATH)) {
    const named = match[1]!;
    if (/^(dist|lib)\//.test(named) || named.includes('<') || named.includes('*')) continue;
    found.add(REPO_FOLDERS.some((folder) => named.startsWith(folder)) ? named : `src/${named}`);
  }
  return [...found].sort();
}

describe('docs/architecture.md', () => {
  it('names only files that exist', () => {
    const missing = namedPaths(readFileSync(PAGE, 'utf8')).filter(
      (file) => !existsSync(path.join(REPO_ROOT, file)),
    );
    expect(missing).toEqual([]);
  });

  it('finds the paths it checks (and would find a stale one)', () => {
    expect(
      namedPaths('see `tools/call-pipeline.ts` and (agent/agent.ts: …) and `test/unit/x.test.ts`'),
    ).toEqual(['src/agent/agent.ts', 'src/tools/call-pipeline.ts', 'test/unit/x.test.ts']);
    expect(namedPaths('`.geekagent/logs/x.ts`, `~/a/b.ts`, `dist/cli/main.js`, `lib/<name>.cjs`')).toEqual(
      [],
    );
    expect(namedPaths(readFileSync(PAGE, 'utf8')).length).toBeGreaterThan(50);
  });
});
