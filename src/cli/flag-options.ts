/**
 * What every face passes to createApp from the command line. Apart from the faces: the TUI loads
 * it with the app, after its first frame, without print mode.
 */

import type { AppOptions } from '../app/create-app.js';
import { mcpConfigFlags } from '../app/create-mcp.js';
import { sessionStart } from '../sessions/manager.js';
import type { ChatOptions, CliIO } from './types.js';

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
  | 'provider'
  | 'allow'
  | 'deny'
  | 'allowProtected'
  | 'sandboxMode'
  | 'approvalMode'
  | 'session'
  | 'skills'
  | 'mcpConfig'
  | 'images'
> {
  return {
    cwd,
    env: io.env,
    model: options.model,
    baseURL: options.baseUrl,
    provider: options.provider,
    allow: options.allow,
    deny: options.deny,
    allowProtected: options.allowProtected,
    sandboxMode: options.sandbox,
    approvalMode: options.approvalMode,
    skills: options.skill,
    mcpConfig: mcpConfigFlags(options),
    images: options.image,
    session: sessionStart(options),
  };
}
