/**
 * The sandbox folder's public face: confine a shell command line with the operating system
 * (bubblewrap on Linux, Seatbelt on macOS, through @anthropic-ai/sandbox-runtime, loaded lazily).
 */

export { commandPatternAllows } from './command-line.js';
export { HOME_DENY_READ } from './paths.js';
export { probeSandbox, type SandboxProbe } from './probe.js';
export { type CommandSandboxOptions, createCommandSandbox } from './sandbox.js';
export {
  describeSandboxSettings,
  narrowerSection,
  parseSandboxMode,
  resolveSandboxPolicy,
  runSandboxMode,
  SANDBOX_MODES,
  type SandboxSection,
  sandboxSectionSchema,
  sandboxSettingsSection,
} from './settings.js';
export {
  type CommandSandbox,
  type ConfiningMode,
  DEFAULT_SANDBOX_POLICY,
  type SandboxMode,
  type SandboxPolicy,
  type SandboxStatus,
  type SandboxWrapOptions,
} from './types.js';
