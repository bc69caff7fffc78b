/**
 * Folder trust's share of model choice: the model settings of the project's `.env` (the key, the
 * base URL, the model) each are one item; only a salted hash of a value is ever recorded.
 */
import path from 'node:path';
import { DOTENV_FILE, readModelDotEnv } from '../config/dotenv.js';
import type { Declaration, TrustContributor } from '../trust/declarations.js';

export const envTrust: TrustContributor = {
  name: 'env',
  kinds: ['env'],
  read: ({ projectDir }) => {
    const file = path.join(projectDir, DOTENV_FILE);
    return Object.entries(readModelDotEnv(projectDir))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, value]) => envDeclaration(file, name, value));
  },
  was: (item) => `.env ${item.name} (a different value)`,
};

function envDeclaration(file: string, name: string, value: string): Declaration {
  return { key: `env:${name}`, kind: 'env', name, file, value, text: envText(name, value) };
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;

function envText(name: string, value: string): string {
  return SECRET_NAME.test(name) ? `.env ${name} (secret, not shown)` : `.env ${name}=${value}`;
}
