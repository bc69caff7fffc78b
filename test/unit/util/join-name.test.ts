// joinName (src/util/join-name.ts) must give path.join's answer for every folder and name.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinName } from '../../../src/util/join-name.js';

describe('joinName', () => {
  const dirs = [
    '',
    '.',
    '..',
    '/',
    '//',
    '/a/b',
    '/a/b/',
    'a//b',
    './a/../b',
    '/a/b/..',
    'a/./',
    '../../c',
    'a/..',
    '/..',
  ];
  const names = [
    'x.log',
    'mcp-demo0-92c495c419741b0134024069.json',
    '..log',
    '.hidden',
    '...',
    'a b',
    'a/b',
    '..',
    '.',
    '',
    'a\\b',
  ];
  for (const dir of dirs)
    it(`joins names in ${JSON.stringify(dir)} as path.join does`, () => {
      // Twice: the folder's remembered form must give the same as the first.
      for (let round = 0; round < 2; round++)
        for (const name of names) expect(joinName(dir, name)).toBe(path.join(dir, name));
    });
});
