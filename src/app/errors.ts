/** How failures read for a person, the same in every face: start-up errors and failed turns. */
import { ModelNotConfiguredError, ProviderError } from '../providers/types.js';
import { SessionError } from '../sessions/files.js';
import { errorMessage, isAbortError } from '../util/errors.js';
import { ConfigError } from '../util/json-file.js';
import { visible } from '../util/terminal-text.js';

/** Shown escaped: a config error quotes the file (JSON.parse cites its text), which is untrusted. */
export function describeStartupError(error: unknown): string {
  if (error instanceof ConfigError) return visible(error.message);
  if (error instanceof SessionError) return visible(`geekagent: ${error.message}`);
  return visible(`geekagent: ${errorMessage(error)}`);
}

export function describeTurnError(error: unknown): string {
  if (isAbortError(error)) return 'cancelled';
  if (error instanceof ProviderError || error instanceof ModelNotConfiguredError) return error.message;
  return `error: ${errorMessage(error)}`;
}
