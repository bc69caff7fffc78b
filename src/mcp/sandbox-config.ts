/**
 * The sandbox part of the MCP config: a stdio entry's `"sandbox"` (true, or the paths and hosts it
 * adds) turned into a ServerSandbox, and the user file's `"sandbox": {"projectServers": true}`,
 * which confines every project server whatever its own entry says (a project can only narrow).
 */
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../util/json-file.js';
import { type SandboxEntry, typeName } from './config-schema.js';

/** How a confined stdio server is confined, beyond the run's sandbox defaults. */
export interface ServerSandbox {
  /** `entry`: its mcp.json asked; `default`: the user's `"sandbox": {"projectServers": true}`. */
  from: 'entry' | 'default';
  /** Absolute folders it may write besides the project root and its temp folder. */
  allowWrite: string[];
  /** Hosts it may reach through the sandbox's proxy. */
  allowHosts: string[];
  /** Absolute paths it may not read, besides the sandbox's deny list. */
  denyRead: string[];
}

/**
 * The user file's `"sandbox": {"projectServers": true}`: every project stdio server (a project
 * skill's too) runs confined, whatever its own entry says. A bad value is a ConfigError.
 */
export function confinesProjectServers(file: string, document: Record<string, unknown>): boolean {
  const value = document.sandbox;
  if (value === undefined) return false;
  const fix = 'expected {"projectServers": true} or {"projectServers": false}';
  if (!isPlainObject(value))
    throw new ConfigError(`${file}: at sandbox: ${fix}, got ${typeName(value)}`, file);
  for (const [key, flag] of Object.entries(value)) {
    if (key.startsWith('_') || key.startsWith('$')) continue;
    if (key !== 'projectServers')
      throw new ConfigError(`${file}: at sandbox.${key}: unknown key (${fix})`, file);
    if (typeof flag !== 'boolean')
      throw new ConfigError(`${file}: at sandbox.projectServers: ${fix}, got ${typeName(flag)}`, file);
  }
  return value.projectServers === true;
}

/** The entry's sandbox: its own request, or the user's default (which only ever adds confinement). */
export function sandboxOf(
  asked: boolean | SandboxEntry | undefined,
  context: {
    /** What a relative path is relative to (as for `cwd`). */
    baseDir: string;
    env: NodeJS.ProcessEnv;
    confineByDefault: boolean;
    /** Expands `${VAR}`s; `where` is the JSON path under `sandbox`. */
    expand: (value: string, ...where: PropertyKey[]) => string;
  },
): { sandbox?: ServerSandbox } {
  const { expand } = context;
  if (asked === undefined || asked === false) {
    return context.confineByDefault
      ? { sandbox: { from: 'default', allowWrite: [], allowHosts: [], denyRead: [] } }
      : {};
  }
  const grants = asked === true ? {} : asked;
  const home = context.env.HOME || os.homedir();
  const place = (value: string, ...where: PropertyKey[]): string => {
    const text = expand(value, ...where);
    const homed = text === '~' ? home : text.startsWith('~/') ? path.join(home, text.slice(2)) : text;
    return path.resolve(context.baseDir, homed);
  };
  return {
    sandbox: {
      from: 'entry',
      allowWrite: (grants.allowWrite ?? []).map((item, index) => place(item, 'allowWrite', index)),
      allowHosts: (grants.network?.allow ?? []).map((host, index) => expand(host, 'network', 'allow', index)),
      denyRead: (grants.denyRead ?? []).map((item, index) => place(item, 'denyRead', index)),
    },
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
