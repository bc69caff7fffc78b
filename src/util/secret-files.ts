/**
 * Secret files: names that hold credentials (`.env*`, private keys, `.npmrc`, `.netrc`, cloud and
 * registry credentials). The one list GeekAgent keeps: text it gathers by itself — project
 * instructions and their `@imports`, the knowledge base's folder and glob sources — never
 * includes such a file, whatever a repository's text asks for.
 */
import path from 'node:path';

/** Exact file names (lower case). */
const SECRET_NAMES = new Set([
  '.npmrc',
  '.yarnrc.yml',
  '.netrc',
  '_netrc',
  '.pypirc',
  '.pgpass',
  '.git-credentials',
  '.htpasswd',
  '.dockercfg',
  'credentials',
  'credentials.json',
  'credentials.yml',
  'credentials.yaml',
  'secrets.json',
  'secrets.yml',
  'secrets.yaml',
  '.secrets',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
]);

/** Extensions of key stores and private keys (lower case, with the dot). */
const SECRET_EXTENSIONS = new Set(['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.kdbx', '.ppk']);

/** Folders whose every file is a credential (`.ssh/config` included: it names keys and hosts). */
const SECRET_FOLDERS = new Set(['.ssh', '.gnupg', '.aws', '.azure', '.kube', '.docker']);

/**
 * Whether `file` (a name or a path, either separator) is a secret file: `.env` and `.env.*`
 * (`.envrc` too), the names and extensions above, or anything in a credentials folder.
 */
export function isSecretFile(file: string): boolean {
  const parts = file.toLowerCase().split(/[\\/]/).filter(Boolean);
  const name = parts.at(-1) ?? '';
  if (name.startsWith('.env')) return true;
  if (SECRET_NAMES.has(name)) return true;
  if (SECRET_EXTENSIONS.has(path.extname(name))) return true;
  return parts.slice(0, -1).some((part) => SECRET_FOLDERS.has(part));
}

/** How a skipped secret file is described to the model and the person. */
export const SECRET_FILE_REASON =
  'a secret file (.env*, private keys, .npmrc, .netrc, credentials) is never included';
