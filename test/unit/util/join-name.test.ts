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
    'a',
    '/a',
    '/home/person/.geekagent/cache',
    '/a/.b/c..d/...',
    '/a/./b',
    '/a/../b',
    '/a/b/.',
    'a\\b',
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
      for (const name of names) expect(joinName(dir, name)).toBe(path.join(dir, name));
    });
});
