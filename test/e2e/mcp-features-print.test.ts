/**
 * MCP protocol features as print mode shows them, with server-everything over stdio: a resource
 * mention attaches content, a prompt command becomes the user turn, elicitation is declined unless
 * --accept-elicitation-defaults, sampling is refused with a reason (nobody can approve it).
 */
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cliFixture, parseJsonOutput, REPO_ROOT, runCli } from './harness.js';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const DOC = 'demo://resource/static/document/features.md';

const fx = cliFixture();
beforeEach(async () => {
  await fx.project.mcpServers({ everything: { command: 'node', args: [EVERYTHING, 'stdio'] } });
});

const userMessage = (index = 0) =>
  String(fx.fake.requests[index]!.body.messages.find((m) => m.role === 'user')?.content ?? '');

describe('MCP features in print mode', () => {
  it('@server:uri attaches the resource to the message', async () => {
    fx.fake.push({ text: 'summarised' });
    const run = await fx.run(['-p', `Summarise @everything:${DOC} please`]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`attached @everything:${DOC}`);
    expect(userMessage()).toContain(`Attached resource @everything:${DOC}:`);
    expect(userMessage()).toMatch(/Summarise @everything:\S+ please/);
  });

  it('an unknown resource is reported and the message still goes', async () => {
    fx.fake.push({ text: 'ok' });
    const run = await fx.run(['-p', 'Read @everything:demo://nope/missing']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('could not attach @everything:demo://nope/missing');
  });

  it('a prompt command sends the prompt’s text as the user turn; /help lists it', async () => {
    fx.fake.push({ text: 'weather answered' });
    const run = await fx.run(['-p', '/mcp__everything__args-prompt Paris']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('weather answered\n');
    expect(userMessage()).toContain('Paris');
    const help = await runCli(['-p', '/help'], { project: fx.project });
    expect(help.stdout).toMatch(/\/mcp__everything__args-prompt <city> \[state\]\s+\[MCP:everything\]/);
    const missing = await runCli(['-p', '/mcp__everything__args-prompt'], { project: fx.project });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('missing argument: city');
  });

  it('elicitation is declined in print mode, accepted with defaults when asked to', async () => {
    const call = { name: 'mcp_everything_trigger-elicitation-request', arguments: '{}' };
    fx.fake.push({ toolCalls: [call] }, { text: 'done' });
    const declinedRun = await fx.run([
      '-p',
      'ask me',
      '--output-format',
      'json',
      '--allow',
      'mcp_everything_*',
    ]);
    expect(parseJsonOutput(declinedRun).tool_calls[0]!.result).toMatch(/decline/i);
    // Nobody saw the question: one stderr line says what was asked and declined.
    expect(declinedRun.stderr).toMatch(
      /^geekagent: MCP server everything asked for input \(".+"\); declined: nobody can answer in print mode/m,
    );
    fx.fake.push({ toolCalls: [call] }, { text: 'done' });
    const accepted = parseJsonOutput(
      await fx.run([
        '-p',
        'ask me',
        '--output-format',
        'json',
        '--allow',
        'mcp_everything_*',
        '--accept-elicitation-defaults',
      ]),
    );
    expect(accepted.tool_calls[0]!.result).toMatch(/accept/i);
  });

  it('sampling is refused with a reason in print mode', async () => {
    fx.fake.push(
      {
        toolCalls: [
          { name: 'mcp_everything_trigger-sampling-request', arguments: '{"prompt":"hi","maxTokens":10}' },
        ],
      },
      { text: 'done' },
    );
    const out = parseJsonOutput(
      await fx.run(['-p', 'sample', '--output-format', 'json', '--allow', 'mcp_everything_*']),
    );
    expect(out.tool_calls[0]!.is_error).toBe(true);
    expect(out.tool_calls[0]!.result).toContain('running non-interactively and nobody can approve it');
    expect(fx.fake.requests).toHaveLength(2);
  });
});
