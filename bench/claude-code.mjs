// Issue 45 side by side: Claude Code itself beside GeekAgent, each sending its first model request
// of a cold `-p hi` run with the same 20 stdio servers to the same fake model (GeekAgent over the
// OpenAI API, Claude Code over Anthropic Messages: bench/startup.mjs answers both), in one rotation.
// Claude Code comes from the npm registry into ~/.cache/geekagent-bench/claude-code on first use
// (`npm install --prefix`, its native binary run directly); without the registry the section is
// skipped with one line. It keeps its ~/.claude between runs (no MCP listing is cached there; a
// first run's migrations would count otherwise); GeekAgent's tool cache is removed before each run.
// Offline it needs only ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY (`-p` asks no login or onboarding);
// CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 keeps telemetry, updates and error reports off the net.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { coldOnce, makeSlowProject } from './cold-start.mjs';
import { firstRequestOnce, median, rotate } from './lib.mjs';
import { makeProject, startModel } from './startup.mjs';

// Pinned: one release measured the same on every machine. --ignore-scripts below: its postinstall
// is not needed (the platform package ships the binary) and must not reach beyond the registry.
const PACKAGE = '@anthropic-ai/claude-code@2.1.332';
const CACHE = path.join(os.homedir(), '.cache', 'geekagent-bench', 'claude-code');

/** The native binary (2.x: a platform package), or the older releases' cli.js under Node. */
function claudeCommand() {
  const modules = path.join(CACHE, 'node_modules', '@anthropic-ai');
  const native = path.join(modules, `claude-code-${process.platform}-${process.arch}`, 'claude');
  if (existsSync(native)) return { command: native, args: [] };
  const script = path.join(modules, 'claude-code', 'cli.js');
  if (existsSync(script)) return { command: process.execPath, args: [script] };
  return undefined;
}

/** Claude Code installed (once) into the cache folder: { command, args, version } or { skipped }. */
export function ensureClaudeCode() {
  let found = claudeCommand();
  if (!found) {
    const npm = spawnSync(
      'npm',
      ['install', '--prefix', CACHE, '--no-audit', '--no-fund', '--ignore-scripts', PACKAGE],
      {
        encoding: 'utf8',
        timeout: 10 * 60_000,
      },
    );
    found = claudeCommand();
    if (!found)
      return {
        skipped: `${PACKAGE} could not be installed from the npm registry (${(npm.stderr || npm.error?.message || `exit ${npm.status}`).trim().split('\n').at(-1)})`,
      };
  }
  const pkg = path.join(CACHE, 'node_modules', '@anthropic-ai', 'claude-code', 'package.json');
  return { ...found, version: JSON.parse(readFileSync(pkg, 'utf8')).version };
}

/** The project's servers as Claude Code's --mcp-config (the same commands; no GeekAgent keys). */
async function mcpConfigOf(project) {
  const { mcpServers } = JSON.parse(await readFile(path.join(project.dir, '.geekagent', 'mcp.json'), 'utf8'));
  const servers = Object.fromEntries(
    Object.entries(mcpServers).map(([name, { command, args, env }]) => [
      name,
      { type: 'stdio', command, args, ...(env ? { env } : {}) },
    ]),
  );
  const file = path.join(project.home, 'claude-mcp.json');
  await writeFile(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

function claudeOnce(model, claude, project, config) {
  return firstRequestOnce(
    model,
    claude.command,
    [...claude.args, '-p', 'hi', '--mcp-config', config, '--strict-mcp-config'],
    {
      cwd: project.dir,
      env: {
        PATH: process.env.PATH,
        HOME: project.claudeHome,
        LANG: 'C.UTF-8',
        ANTHROPIC_BASE_URL: model.anthropicUrl,
        ANTHROPIC_API_KEY: 'x',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    },
  );
}

async function withClaudeHome(project) {
  const claudeHome = path.join(project.home, 'claude-home');
  await mkdir(claudeHome, { recursive: true });
  return { ...project, claudeHome };
}

export async function benchClaudeCode({ reps = 5, slowReps = 3 } = {}) {
  const claude = ensureClaudeCode();
  if (claude.skipped) return claude;
  const model = await startModel();
  try {
    const project = await withClaudeHome(await makeProject(20, 'lazy'));
    const config = await mcpConfigOf(project);
    // Warm-up: file caches, GeekAgent's compile cache, Claude Code's first-start migrations.
    await coldOnce(model, project);
    await claudeOnce(model, claude, project, config);
    const runs = await rotate(reps, {
      geekagent: () => coldOnce(model, project),
      claude: () => claudeOnce(model, claude, project, config),
    });
    // The last three of the 20 take 6 s to answer anything.
    const slowProject = await withClaudeHome(await makeSlowProject());
    const slowConfig = await mcpConfigOf(slowProject);
    await claudeOnce(model, claude, slowProject, slowConfig);
    const slow = await rotate(slowReps, {
      geekagent: () => coldOnce(model, slowProject),
      claude: () => claudeOnce(model, claude, slowProject, slowConfig),
    });
    const ms = (list) => list.map((run) => run.ms);
    const tools = (list) => list.map((run) => run.tools);
    return {
      version: claude.version,
      geekagent: median(ms(runs.geekagent)),
      claude: median(ms(runs.claude)),
      slowGeekagent: median(ms(slow.geekagent)),
      slowClaude: median(ms(slow.claude)),
      samples: {
        geekagent: ms(runs.geekagent),
        geekagentTools: tools(runs.geekagent),
        claude: ms(runs.claude),
        claudeTools: tools(runs.claude),
        slowGeekagent: ms(slow.geekagent),
        slowGeekagentTools: tools(slow.geekagent),
        slowClaude: ms(slow.claude),
        slowClaudeTools: tools(slow.claude),
      },
    };
  } finally {
    await model.close();
  }
}
