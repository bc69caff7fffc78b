/**
 * Protected paths: which files count (.geekagent/, .env, the user state folder), what run_shell
 * commands are flagged, and the executor's rule — asked even under `allow`, refused by print mode
 * with the flag to pass, let through by `--allow-protected` for that exact path.
 */
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrintModeApprover } from '../../../src/cli/print-mode.js';
import { PolicyStore } from '../../../src/permissions/policy.js';
import type { Approver } from '../../../src/permissions/types.js';
import { createBuiltinTools } from '../../../src/tools/builtin/index.js';
import { ToolExecutor } from '../../../src/tools/executor.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { ProtectedPaths } from '../../../src/workspace/protected.js';
import { RootSandbox } from '../../../src/workspace/root-sandbox.js';
import { RecordingApprover } from '../../helpers/recording-approver.js';

let base: string;
let project: string;
let stateHome: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'geekagent-protected-')));
  project = path.join(base, 'project');
  stateHome = path.join(base, 'state-home');
  await mkdir(project);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const guard = (allowed: string[] = []) =>
  new ProtectedPaths({ projectDir: project, userStateDir: stateHome, allowed });

describe('ProtectedPaths', () => {
  it('protects .geekagent/ (any folder), .env files and the user state folder', () => {
    const paths = guard();
    const at = (...parts: string[]) => path.join(project, ...parts);
    expect(paths.check([at('.geekagent', 'mcp.json')])).toEqual([path.join('.geekagent', 'mcp.json')]);
    expect(paths.check([at('sub', '.GeekAgent', 'GeekAgent.json')])).toHaveLength(1);
    expect(paths.check([at('.env')])).toEqual(['.env']);
    expect(paths.check([at('api', '.env.local')])).toEqual([path.join('api', '.env.local')]);
    expect(paths.check([path.join(stateHome, 'trusted.json')])).toEqual([
      path.join(stateHome, 'trusted.json'),
    ]);
    expect(paths.check([at('src', 'env.ts')])).toEqual([]);
    expect(paths.check([at('notes.env')])).toEqual([]);
    // Judged on every spelling: a harmless name that really is .geekagent/mcp.json counts.
    expect(paths.check([at('cfg', 'mcp.json'), at('.geekagent', 'mcp.json')])).toEqual([
      path.join('.geekagent', 'mcp.json'),
    ]);
  });

  it('lets --allow-protected through only for the exact path given', () => {
    const paths = guard(['.geekagent/mcp.json']);
    expect(paths.check([path.join(project, '.geekagent', 'mcp.json')])).toEqual([]);
    expect(paths.check([path.join(project, '.geekagent', 'GeekAgent.json')])).toHaveLength(1);
  });

  it('flags shell commands that mention protected names', () => {
    const paths = guard();
    expect(paths.mentionedIn('echo x > .geekagent/mcp.json')).toEqual(['.geekagent', 'mcp.json']);
    expect(paths.mentionedIn('sed -i s/ask/allow/ GeekAgent.json')).toEqual(['GeekAgent.json']);
    expect(paths.mentionedIn('cat ./.env; cp .env.example x')).toEqual(['.env', '.env.example']);
    expect(paths.mentionedIn(`ls ${stateHome}`)).toEqual([stateHome]);
    expect(paths.mentionedIn('node -e "process.env.HOME" && cat foo.env')).toEqual([]);
    expect(guard(['.env']).mentionedIn('cat .env')).toEqual([]);
  });
});

function executor(approver: Approver, allowed: string[] = []) {
  const registry = new ToolRegistry();
  for (const tool of createBuiltinTools()) registry.register(tool);
  const policies = new PolicyStore({
    layers: [{ label: 'cli', rules: { write: 'allow', patch: 'allow', run_shell: 'allow' } }],
    persistAllow: async () => undefined,
  });
  return new ToolExecutor({
    registry,
    policies,
    approver,
    redact: (text) => text,
    context: {
      sandbox: new RootSandbox(project),
      undo: { record: async () => undefined },
      env: {},
      protectedPaths: guard(allowed),
    },
  });
}

const signal = () => new AbortController().signal;
const call = (name: string, args: Record<string, unknown>) => ({
  id: '1',
  name,
  arguments: JSON.stringify(args),
});
const mcpJson = JSON.stringify({ mcpServers: { x: { command: 'sh', args: ['-c', 'touch /tmp/pwned'] } } });

describe('the executor and protected paths', () => {
  it('asks for a protected write even under allow, saying why; no → nothing written', async () => {
    const approver = new RecordingApprover('no');
    const out = await executor(approver).execute(
      call('write', { path: '.geekagent/mcp.json', content: mcpJson }),
      signal(),
    );
    expect(out).toMatchObject({ decision: 'refused', output: 'declined write', isError: true });
    expect(approver.requests).toHaveLength(1);
    expect(approver.requests[0]!.title).toBe(
      `About to create ${path.join('.geekagent', 'mcp.json')} — protected path: ${path.join('.geekagent', 'mcp.json')}`,
    );
    expect(approver.requests[0]!.protectedPaths).toEqual([path.join('.geekagent', 'mcp.json')]);
    await expect(readFile(path.join(project, '.geekagent', 'mcp.json'))).rejects.toThrow(/ENOENT/);
  });

  it('still asks when the path reaches .geekagent through an in-root link', async () => {
    await mkdir(path.join(project, '.geekagent'));
    await symlink('.geekagent', path.join(project, 'cfg'));
    const approver = new RecordingApprover('no');
    await executor(approver).execute(call('write', { path: 'cfg/mcp.json', content: '{}' }), signal());
    // Named by where it really leads.
    expect(approver.requests[0]!.protectedPaths).toEqual([path.join('.geekagent', 'mcp.json')]);
  });

  it('yes → written; an unprotected allowed write is not asked', async () => {
    const approver = new RecordingApprover('yes');
    const exec = executor(approver);
    expect(await exec.execute(call('write', { path: '.env', content: 'A=1\n' }), signal())).toMatchObject({
      decision: 'approved',
      isError: false,
    });
    expect(await exec.execute(call('write', { path: 'notes.txt', content: 'x' }), signal())).toMatchObject({
      decision: 'allow',
      isError: false,
    });
    expect(approver.requests.map((request) => request.toolName)).toEqual(['write']);
    expect(await readFile(path.join(project, '.env'), 'utf8')).toBe('A=1\n');
  });

  it('flags run_shell commands that mention a protected name', async () => {
    const approver = new RecordingApprover('no');
    await executor(approver).execute(call('run_shell', { command: 'cat .env' }), signal());
    expect(approver.requests[0]).toMatchObject({
      title: 'About to run a shell command — protected path: .env',
      detail: 'cat .env',
      protectedPaths: ['.env'],
    });
  });

  it('print mode refuses with the flag to pass; --allow-protected lets that exact path through', async () => {
    const config = path.join(project, '.geekagent', 'GeekAgent.json');
    await mkdir(path.dirname(config));
    await writeFile(config, '{"tools": {"run_shell": "ask"}}');
    const patched = await executor(new PrintModeApprover()).execute(
      call('patch', { path: '.geekagent/GeekAgent.json', hunks: [{ old: '"ask"', new: '"allow"' }] }),
      signal(),
    );
    const configShown = path.join('.geekagent', 'GeekAgent.json');
    expect(patched).toMatchObject({
      decision: 'refused',
      output: `protected path: ${configShown} — pass --allow-protected ${configShown} to allow it`,
    });
    expect(await readFile(config, 'utf8')).toBe('{"tools": {"run_shell": "ask"}}');

    const shown = path.join('.geekagent', 'mcp.json');
    const print = await executor(new PrintModeApprover()).execute(
      call('write', { path: '.geekagent/mcp.json', content: mcpJson }),
      signal(),
    );
    expect(print).toMatchObject({
      decision: 'refused',
      output: `protected path: ${shown} — pass --allow-protected ${shown} to allow it`,
    });
    const allowed = await executor(new PrintModeApprover(), ['.geekagent/mcp.json']).execute(
      call('write', { path: '.geekagent/mcp.json', content: mcpJson }),
      signal(),
    );
    expect(allowed).toMatchObject({ decision: 'allow', isError: false });
    expect(await readFile(path.join(project, '.geekagent', 'mcp.json'), 'utf8')).toBe(mcpJson);
  });

  it('refuses a write whose path was switched into .geekagent after the question', async () => {
    await mkdir(path.join(project, '.geekagent'));
    await mkdir(path.join(project, 'cfg'));
    // While the person is asked (about cfg/mcp.json, not protected), cfg becomes a link to .geekagent.
    const switching: Approver = {
      ask: async () => {
        await rm(path.join(project, 'cfg'), { recursive: true });
        await symlink('.geekagent', path.join(project, 'cfg'));
        return 'yes';
      },
      refusalMessage: (name) => `declined ${name}`,
    };
    const registry = new ToolRegistry();
    for (const tool of createBuiltinTools()) registry.register(tool);
    const exec = new ToolExecutor({
      registry,
      policies: new PolicyStore({
        layers: [{ label: 'cli', rules: { write: 'ask' } }],
        persistAllow: async () => undefined,
      }),
      approver: switching,
      redact: (text) => text,
      context: {
        sandbox: new RootSandbox(project),
        undo: { record: async () => undefined },
        env: {},
        protectedPaths: guard(),
      },
    });
    const out = await exec.execute(call('write', { path: 'cfg/mcp.json', content: mcpJson }), signal());
    expect(out).toMatchObject({
      isError: true,
      output: 'write: cfg/mcp.json now leads to a protected path; refused',
    });
    await expect(readFile(path.join(project, '.geekagent', 'mcp.json'))).rejects.toThrow(/ENOENT/);
  });
});
