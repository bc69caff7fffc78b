/**
 * The built-in tool set, in the order the model sees it. Options exist for tests (short
 * timeouts, a fixed clock) and for configuration (the fetch allow list).
 */
import path from 'node:path';
import type { BackgroundShells } from '../background/shells.js';
import type { Tool } from '../types.js';
import { createPatchTool, createWriteTool } from './edit.js';
import { createFetchTool } from './fetch.js';
import { createLsTool, createReadTool } from './files.js';
import { createGlobTool } from './glob.js';
import { createSearchTool } from './search.js';
import type { ProcessGroups } from './shell.js';
import { createShellTool } from './shell.js';
import { createTimeTool } from './time.js';

export interface BuiltinToolOptions {
  shellTimeoutMs?: number;
  fetchTimeoutMs?: number;
  /** `fetch.allowHosts` from the config files. */
  fetchAllowHosts?: readonly string[];
  now?: () => Date;
  /** The session's background shells (run_shell's `background`); absent in `mcp serve`. */
  background?: BackgroundShells;
  /** The run's process groups (run_shell lists each command's while it runs). */
  groups?: ProcessGroups;
}

export function createBuiltinTools(options: BuiltinToolOptions = {}): Tool[] {
  return [
    createTimeTool({ now: options.now }),
    createShellTool({
      timeoutMs: options.shellTimeoutMs,
      background: options.background,
      groups: options.groups,
    }),
    createLsTool(),
    createReadTool(),
    createGlobTool(),
    createSearchTool(),
    createFetchTool({ timeoutMs: options.fetchTimeoutMs, allowHosts: options.fetchAllowHosts }),
    keyedByFile(createWriteTool()),
    keyedByFile(createPatchTool()),
  ];
}

/** Set on the tool itself: a spread copy would read (and so build) its lazy `parameters` now. */
function keyedByFile(tool: Tool): Tool {
  tool.exclusiveKey = fileEditKey;
  return tool;
}

/**
 * Two edits of one file in one round run one after another: each reads the file, so overlapping
 * they would both start from the old text and the first edit would be lost.
 */
export function fileEditKey(args: Record<string, unknown>, root: string): string | undefined {
  if (typeof args.path !== 'string') return undefined;
  const absolute = path.resolve(root, args.path);
  // Case-insensitive file systems by default: `A.txt` and `a.txt` are one file there.
  const folded =
    process.platform === 'darwin' || process.platform === 'win32' ? absolute.toLowerCase() : absolute;
  return `file:${folded}`;
}

export { createPatchTool, createWriteTool } from './edit.js';
export { createFetchTool, FETCH_TIMEOUT_MS } from './fetch.js';
export { createLsTool, createReadTool } from './files.js';
export { createGlobTool } from './glob.js';
export { createSearchTool } from './search.js';
export { createShellTool, SHELL_TIMEOUT_MS } from './shell.js';
export { createTimeTool } from './time.js';
