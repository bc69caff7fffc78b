/**
 * What every face passes to createApp from the command line. Apart from the faces, so that the
 * TUI's start does not load print mode (and the app's module graph) to read its flags.
 */
import type { AppOptions } from '../app/create-app.js';
import type { ChatOptions, CliIO } from './program.js';

export function flagOptions(
  cwd: string,
  options: ChatOptions,
  io: CliIO,
): Pick<
  AppOptions,
  | 'cwd'
  | 'env'
  | 'model'
  | 'baseURL'
  | 'allow'
  | 'deny'
  | 'allowProtected'
  | 'session'
  | 'skills'
  | 'mcpConfig'
> {
  return {
    cwd,
    env: io.env,
    model: options.model,
    baseURL: options.baseUrl,
    allow: options.allow,
    deny: options.deny,
    allowProtected: options.allowProtected,
    skills: options.skill,
    mcpConfig:
      options.mcpConfig.length > 0 || options.strictMcpConfig
        ? { values: options.mcpConfig, strict: options.strictMcpConfig === true }
        : undefined,
    session:
      options.resume !== undefined
        ? { kind: 'resume', id: options.resume }
        : options.continue
          ? { kind: 'continue' }
          : { kind: 'new' },
  };
}
