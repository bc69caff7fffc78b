/**
 * Which git settings run commands, read with git's own parser: what a config gained is found
 * however it is spelled (subsection case, a section header's other spellings), what it had is not.
 */
import { describe, expect, it } from 'vitest';
import { addedDangerous, configEntries, isDangerousKey } from '../../../src/sandbox/git-config.js';

describe('git config keys that run commands', () => {
  it('names the keys git runs', () => {
    for (const key of [
      'core.fsmonitor',
      'core.hooksPath',
      'core.sshCommand',
      'core.pager',
      'core.editor',
      'filter.lfs.process',
      'diff.x.textconv',
      'merge.x.driver',
      'include.path',
      'includeIf.gitdir:/x/.path',
      'alias.st',
      'credential.helper',
    ])
      expect(isDangerousKey(key), key).toBe(true);
    for (const key of ['user.name', 'core.bare', 'remote.origin.url', 'branch.main.merge', 'diff.x.binary'])
      expect(isDangerousKey(key), key).toBe(false);
  });

  it('reads a config as git does and keeps only what was added', () => {
    const before = configEntries(Buffer.from('[core]\n\tpager = less\n[user]\n\tname = a\n'))!;
    const after = configEntries(
      Buffer.from(
        '[core]\n\tpager = less\n[CORE]\n\tFSMonitor = "touch x" ; comment\n[filter "X"]\n\tclean = y\n[user]\n\tname = b\n',
      ),
    )!;
    expect(addedDangerous(before, after)).toEqual([
      { key: 'core.fsmonitor', value: 'touch x' },
      { key: 'filter.X.clean', value: 'y' },
    ]);
    expect(configEntries(Buffer.from('[core\n'))).toBeUndefined();
  });
});
