/**
 * MCP protocol features as print mode shows them, with server-everything over stdio: a resource
 * mention attaches content, a prompt command becomes the user turn, elicitation is declined unless
 * --accept-elicitation-defaults, sampling is refused with a reason (nobody can approve it).
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeModel, startFakeModel } from '../fixtures/fake-model.js';
import { createProject, type Project, parseJsonOutput, REPO_ROOT, runCli } from './harness.js';

const EVERYTHING = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const DOC = 'demo://resource/static/document/features.md';

let project: Project;
let fake: FakeModel;
beforeEach(async () => {
  project = await createProject();
  fake = await startFakeModel();
  await project.mcpServers({ everything: { command: 'node', args: [EVERYTHING, 'stdio'] } });
});
afterEach(async () => {
  await fake.close();
  await project.cleanup();
});

const userMessage = (index = 0) =>
  String(fake.requests[index]!.body.messages.find((m) => m.role === 'user')?.content ?? '');

describe('MCP features in print mode', () => {
  it('@server:uri attaches the resource to the message', async () => {
    fake.push({ text: 'summarised' });
    const run = await runCli(['-p', `Summarise @everything:${DOC} please`], { project, modelUrl: fake.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`attached @everything:${DOC}`);
    expect(userMessage()).toContain(`Attached resource @everything:${DOC}:`);
    expect(userMessage()).toMatch(/Summarise @everything:\S+ please/);
  });

  it('an unknown resource is reported and the message still goes', async () => {
    fake.push({ text: 'ok' });
    const run = await runCli(['-p', 'Read @everything:demo://nope/missing'], { project, modelUrl: fake.url });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('could not attach @everything:demo://nope/missing');
  });

  it('a prompt command sends the prompt’s text as the user turn; /help lists it', async () => {
    fake.push({ text: 'weather answered' });
    const run = await runCli(['-p', '/mcp__everything__args-prompt Paris'], { project, modelUrl: fake.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('weather answered\n');
    expect(userMessage()).toContain('Paris');
    const help = await runCli(['-p', '/help'], { project });
    expect(help.stdout).toMatch(/\/mcp__everything__args-prompt <city> \[state\]\s+\[MCP:everything\]/);
    const missing = await runCli(['-p', '/mcp__everything__args-prompt'], { project });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('missing argument: city');
  });

  it('elicitation is declined in print mode, accepted with defaults when asked to', async () => {
    const call = { name: 'mcp_everything_trigger-elicitation-request', arguments: '{}' };
    fake.push({ toolCalls: [call] }, { text: 'done' });
    const declined = parseJsonOutput(
      await runCli(['-p', 'ask me', '--output-format', 'json', '--allow', 'mcp_everything_*'], {
        project,
        modelUrl: fake.url,
      }),
    );
    expect(declined.tool_calls[0]!.result).toMatch(/decline/i);
    fake.push({ toolCalls: [call] }, { text: 'done' });
    const accepted = parseJsonOutput(
      await runCli(
        [
          '-p',
          'ask me',
          '--output-format',
          'json',
          '--allow',
          'mcp_everything_*',
          '--accept-elicitation-defaults',
        ],
        {
          project,
          modelUrl: fake.url,
        },
      ),
    );
    expect(accepted.tool_calls[0]!.result).toMatch(/accept/i);
  });

  it('sampling is refused with a reason in print mode', async () => {
    fake.push(
      {
        toolCalls: [
          { name: 'mcp_everything_trigger-sampling-request', arguments: '{"prompt":"hi","maxTokens":10}' },
        ],
      },
      { text: 'done' },
    );
    const out = parseJsonOutput(
      await runCli(['-p', 'sample', '--output-format', 'json', '--allow', 'mcp_everything_*'], {
        project,
        modelUrl: fake.url,
      }),
    );
    expect(out.tool_calls[0]!.is_error).toBe(true);
    expect(out.tool_calls[0]!.result).toContain('running non-interactively and nobody can approve it');
    expect(fake.requests).toHaveLength(2);
  });
});
