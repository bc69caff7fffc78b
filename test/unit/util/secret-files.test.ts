import { describe, expect, it } from 'vitest';
import { isSecretFile } from '../../../src/util/secret-files.js';

describe('isSecretFile', () => {
  it('knows .env files, keys, registry and cloud credentials', () => {
    for (const name of [
      '.env',
      '.env.local',
      'app/.env.production',
      '.envrc',
      'id_rsa',
      '/home/u/.ssh/id_ed25519',
      'certs/server.pem',
      'tls/server.KEY',
      '.npmrc',
      '.netrc',
      '.git-credentials',
      'credentials',
      '.aws/config',
      '.ssh/config',
      'store.p12',
    ])
      expect(isSecretFile(name), name).toBe(true);
  });

  it('leaves ordinary files alone', () => {
    for (const name of [
      'AGENTS.md',
      'docs/env.md',
      'id_rsa.pub',
      'src/keys.ts',
      'environment.md',
      'a.keynote',
    ])
      expect(isSecretFile(name), name).toBe(false);
  });
});
