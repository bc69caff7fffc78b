/**
 * The built-in tool set, in the order the model sees it. Options exist for tests (short
 * timeouts, a fixed clock) and for configuration (the fetch allow list).
 */
import type { Tool } from '../types.js';
import { createPatchTool, createWriteTool } from './edit.js';
import { createFetchTool } from './fetch.js';
import { createLsTool, createReadTool } from './files.js';
import { createGlobTool } from './glob.js';
import { createSearchTool } from './search.js';
import { createShellTool } from './shell.js';
import { createTimeTool } from './time.js';

export interface BuiltinToolOptions {
  shellTimeoutMs?: number;
  fetchTimeoutMs?: number;
  /** `fetch.allowHosts` from the config files. */
  fetchAllowHosts?: readonly string[];
  now?: () => Date;
}

export function createBuiltinTools(options: BuiltinToolOptions = {}): Tool[] {
  return [
    createTimeTool({ now: options.now }),
    createShellTool({ timeoutMs: options.shellTimeoutMs }),
    createLsTool(),
    createReadTool(),
    createGlobTool(),
    createSearchTool(),
    createFetchTool({ timeoutMs: options.fetchTimeoutMs, allowHosts: options.fetchAllowHosts }),
    createWriteTool(),
    createPatchTool(),
  ];
}

export { createPatchTool, createWriteTool } from './edit.js';
export { createFetchTool, FETCH_TIMEOUT_MS } from './fetch.js';
export { createLsTool, createReadTool } from './files.js';
export { createGlobTool } from './glob.js';
export { createSearchTool } from './search.js';
export { createShellTool, SHELL_TIMEOUT_MS } from './shell.js';
export { createTimeTool } from './time.js';
