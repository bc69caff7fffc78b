/**
 * delegate_task and custom agents through the built CLI and the fake model (which recognises a
 * sub-agent's requests by its system prompt and answers them from that agent's own script): a
 * custom agent's tools, its refusal of others, parallel delegations (measured overlap of their
 * requests), a failing child, the child runs in the JSON result with their transcripts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RecordedRequest, startFakeModel, subAgentOf } from '../fixtures/fake-model.js';
import { cliFixture, DEMO_SERVER, runCli } from './harness.js';

const fx = cliFixture();

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

interface ChildJson {
  agent: string;
  status: string;
  result: string;
  rounds: number;
  tool_calls: Array<{ name: string; decision: string; is_error: boolean }>;
  transcript?: string;
}
interface Output {
  result: string;
  tool_calls: Array<{ name: string; result: string; is_error: boolean }>;
  agents: ChildJson[];
}

async function runJson(
  prompt: string,
  extra: string[] = [],
  env: Record<string, string> = {},
): Promise<Output> {
  const result = await fx.run(['-p', prompt, '--output-format', 'json', ...extra], { env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Output;
}

const toolResults = (request: RecordedRequest) =>
  request.body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));

describe('delegate_task', () => {
  it('a custom agent with tools [read, mcp_demo_*] calls those, is refused write, and never sees the parent history', async () => {
    await fx.project.mcpServers({ demo: { command: 'node', args: [DEMO_SERVER] } });
    await fx.project.write('notes.txt', 'the secret word is PLUM\n');
    await fx.project.write(
      '.geekagent/agents/reader.md',
      '---\nname: reader\ndescription: reads notes and counts words\ntools: [read, mcp_demo_*]\nmax_rounds: 5\n---\nRead carefully.\n',
    );
    fx.fake.push(
      {
        toolCalls: [
          call('delegate_task', { task: 'What is the secret word in notes.txt?', agent: 'reader' }),
        ],
      },
      (request) => ({ text: `Parent got: ${toolResults(request).join(' | ')}` }),
    );
    fx.fake.pushFor(
      'reader',
      {
        // `write` is not offered to this agent: a model naming it anyway.
        undeclared: true,
        toolCalls: [
          call('read', { path: 'notes.txt' }),
          call('mcp_demo_word_count', { text: 'the secret word is PLUM' }),
          call('write', { path: 'stolen.txt', content: 'x' }),
        ],
      },
      (request) => ({ text: `The word is PLUM. Tools said: ${toolResults(request).join(' | ')}` }),
    );
    const out = await runJson('Find the secret word', ['--allow', 'mcp_demo_*', '--allow', 'write']);

    const child = fx.fake.requests.filter((request) => subAgentOf(request) === 'reader');
    expect(child).toHaveLength(2);
    // A fresh conversation: the system prompt and the task, nothing of the parent's.
    expect(child[0]!.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(String(child[0]!.body.messages[1]!.content)).toBe('What is the secret word in notes.txt?');
    expect(String(child[0]!.body.messages[0]!.content)).toContain('Read carefully.');
    const offered = (child[0]!.body.tools ?? []).map((tool) => (tool.function as { name: string }).name);
    expect(offered.sort()).toEqual(['mcp_demo_dice', 'mcp_demo_word_count', 'read']);
    const results = toolResults(child[1]!);
    expect(results[0]).toContain('the secret word is PLUM');
    expect(results[1]).toBe('Characters 23, words 5');
    expect(results[2]).toMatch(/tool write is not available in this conversation/);
    expect(existsSync(`${fx.project.dir}/stolen.txt`)).toBe(false);

    // The parent's history grew by the answer only, with its header.
    expect(out.tool_calls).toHaveLength(1);
    expect(out.tool_calls[0]!.result).toMatch(
      /^\[agent reader · 2 rounds · [\d,]+ tokens\]\nThe word is PLUM\./,
    );
    expect(out.result).toContain('The word is PLUM.');
    expect(out.agents).toHaveLength(1);
    const [run] = out.agents;
    expect(run!.status).toBe('completed');
    // In the order they ended (they ran concurrently).
    expect(run!.tool_calls.map((c) => [c.name, c.is_error]).sort()).toEqual([
      ['mcp_demo_word_count', false],
      ['read', false],
      ['write', true],
    ]);
    // The transcript is saved beside the parent session and linked from the result.
    expect(out.tool_calls[0]!.result).toContain(`(transcript: ${run!.transcript})`);
    expect(readFileSync(run!.transcript!, 'utf8')).toContain('The word is PLUM.');
    // And read back, read-only, from the continued session.
    const opts = { project: fx.project, modelUrl: fx.fake.url };
    const runs = await runCli(['-p', '/agents runs', '--continue'], opts);
    expect(runs.stdout.trim()).toMatch(/^01-reader-[0-9a-f]{4}$/);
    const log = await runCli(['-p', `/agents log ${runs.stdout.trim()}`, '--continue'], opts);
    expect(log.stdout).toContain('user: What is the secret word in notes.txt?');
    expect(log.stdout).toContain('  → read {"path":"notes.txt"}');
    expect(log.stdout).toContain('tool write (error): tool write is not available');
    expect(log.stdout).toMatch(/^agent: The word is PLUM\./m);
  });

  it("an agent's model: NAME from models.json runs on that entry's endpoint and key; a plain id stays on the current one", async () => {
    const other = await startFakeModel();
    try {
      const home = path.join(fx.project.home, '.geekagent');
      await mkdir(home, { recursive: true });
      await writeFile(
        path.join(home, 'models.json'),
        JSON.stringify({
          models: {
            cheap: { provider: 'openai', model: 'cheap-model', baseURL: other.url, keyVariable: 'CHEAP_KEY' },
          },
        }),
      );
      await fx.project.write(
        '.geekagent/agents/scout.md',
        '---\nname: scout\ndescription: looks around\nmodel: cheap\n---\nLook.\n',
      );
      await fx.project.write(
        '.geekagent/agents/plain.md',
        '---\nname: plain\ndescription: same endpoint\nmodel: plain-model\n---\nLook.\n',
      );
      fx.fake.push(
        {
          toolCalls: [
            call('delegate_task', { task: 'look', agent: 'scout' }),
            call('delegate_task', { task: 'look', agent: 'plain' }),
          ],
        },
        { text: 'done' },
      );
      other.pushFor('scout', { text: 'scout saw it' });
      fx.fake.pushFor('plain', { text: 'plain saw it' });
      const out = await runJson('look around', [], { CHEAP_KEY: 'cheap-secret' });
      expect(out.agents.map((run) => [run.agent, run.status]).sort()).toEqual([
        ['plain', 'completed'],
        ['scout', 'completed'],
      ]);
      expect(other.requests).toHaveLength(1);
      expect(other.requests[0]!.body.model).toBe('cheap-model');
      expect(other.requests[0]!.headers.authorization).toBe('Bearer cheap-secret');
      const plain = fx.fake.requests.filter((request) => subAgentOf(request) === 'plain');
      expect(plain.map((request) => request.body.model)).toEqual(['plain-model']);
    } finally {
      await other.close();
    }
  });

  it('two delegations of one round run at once: each child request is answered only once the other arrived', async () => {
    fx.fake.push(
      {
        toolCalls: [call('delegate_task', { task: 'task A' }), call('delegate_task', { task: 'task B' })],
      },
      (request) => ({ text: toolResults(request).join(' | ') }),
    );
    // Each child's request is held until both children's requests are in (3 = parent + 2).
    const answer = (request: RecordedRequest) => ({
      text: `answer to ${String(request.body.messages[1]!.content)}`,
      holdUntilRequests: 3,
    });
    fx.fake.pushFor('explore', answer, answer);
    const out = await runJson('Do both');
    expect(out.agents.map((run) => run.status)).toEqual(['completed', 'completed']);
    expect(out.result).toMatch(/answer to task A[\s\S]*answer to task B/);
    const [a, b] = fx.fake.requests.filter((request) => subAgentOf(request) === 'explore');
    // Measured: the second child's request arrived before the first one's answer ended.
    expect(b!.receivedAt).toBeLessThanOrEqual(a!.answeredAt!);
    expect(a!.receivedAt).toBeLessThanOrEqual(b!.answeredAt!);
  });

  it('a failing child returns an error result saying so, and the parent goes on', async () => {
    fx.fake.push({ toolCalls: [call('delegate_task', { task: 'explode' })] }, (request) => ({
      text: `seen: ${toolResults(request).join(' | ')}`,
    }));
    fx.fake.pushFor('explore', { kind: 'http_error', status: 400, message: 'bad request from the child' });
    const out = await runJson('Try it');
    expect(out.tool_calls[0]!.is_error).toBe(true);
    expect(out.tool_calls[0]!.result).toMatch(
      /^\[agent explore · 1 round · 0 tokens · failed\]\n.*bad request from the child/,
    );
    expect(out.agents[0]!.status).toBe('failed');
    expect(out.result).toMatch(/^seen: \[agent explore/);
  });

  it('a child whose model never answers times out with a result saying so', async () => {
    fx.fake.push({ toolCalls: [call('delegate_task', { task: 'wait forever' })] }, (request) => ({
      text: `seen: ${toolResults(request).join(' | ')}`,
    }));
    fx.fake.pushFor('explore', { kind: 'silent' });
    const out = await runJson('Try', [], { GEEKAGENT_AGENT_TIMEOUT_SECONDS: '1' });
    expect(out.tool_calls[0]!.is_error).toBe(true);
    expect(out.tool_calls[0]!.result).toMatch(
      /^\[agent explore · 1 round · 0 tokens · timed out\]\ntimed out after 1 s/,
    );
    expect(out.agents[0]!.status).toBe('timed_out');
  });

  it('a sub-agent keeps to the active skill’s whitelist: it is shown and may call only the tools both name', async () => {
    await fx.project.write(
      'skills/reader/SKILL.md',
      '---\ndescription: Only reads\ntools: [read, delegate_task]\n---\nRead, never write.\n',
    );
    await fx.project.write(
      '.geekagent/agents/writer.md',
      '---\nname: writer\ndescription: reads and writes\ntools: [read, search, write]\nmax_rounds: 5\n---\nWrite.\n',
    );
    await fx.project.write('notes.txt', 'the secret word is PLUM\n');
    fx.fake.push(
      { toolCalls: [call('delegate_task', { task: 'copy the notes', agent: 'writer' })] },
      (request) => ({
        text: `Parent got: ${toolResults(request).join(' | ')}`,
      }),
    );
    fx.fake.pushFor(
      'writer',
      {
        toolCalls: [
          call('read', { path: 'notes.txt' }),
          call('search', { pattern: 'PLUM' }),
          call('write', { path: 'stolen.txt', content: 'PLUM' }),
        ],
        // The child is not offered search and write; a model may name them anyway.
        undeclared: true,
      },
      (request) => ({ text: `Tools said: ${toolResults(request).join(' | ')}` }),
    );
    // write and search are allowed by the rules: only the skill keeps them from the child.
    await runJson('Copy the notes', ['--skill', 'reader', '--allow', 'write', '--allow', 'search']);

    const child = fx.fake.requests.filter((request) => subAgentOf(request) === 'writer');
    expect(child).toHaveLength(2);
    const offered = (child[0]!.body.tools ?? []).map((tool) => (tool.function as { name: string }).name);
    expect(offered).toEqual(['read']);
    const results = toolResults(child[1]!);
    expect(results[0]).toContain('the secret word is PLUM');
    expect(results[1]).toMatch(/tool search is not available in this conversation/);
    expect(results[2]).toMatch(/tool write is not available in this conversation/);
    expect(existsSync(path.join(fx.project.dir, 'stolen.txt'))).toBe(false);
  });

  it('the default agent sees only read-only tools and no delegate_task; /agents lists agents and load errors', async () => {
    await fx.project.write(
      '.geekagent/agents/broken.md',
      '---\nname: broken\ndescription: x\ntools: [read\n---\n',
    );
    fx.fake.push({ toolCalls: [call('delegate_task', { task: 'look' })] }, { text: 'done' });
    fx.fake.pushFor('explore', { text: 'looked' });
    await runJson('Look around');
    const child = fx.fake.requests.find((request) => subAgentOf(request) === 'explore')!;
    const offered = (child.body.tools ?? []).map((tool) => (tool.function as { name: string }).name).sort();
    expect(offered).toEqual(['get_current_time', 'glob', 'ls', 'read', 'search', 'tool_search']);

    const listed = await fx.run(['-p', '/agents']);
    expect(listed.stdout).toMatch(/^explore — read-only research/m);
    expect(listed.stdout).toMatch(/error: .*\.geekagent\/agents\/broken\.md:4: unclosed list for "tools"/);
  });
});

describe('a sub-agent and the before-request hooks', () => {
  it('a long sub-agent run is compacted like the main one: older tool outputs pruned before the window fills', async () => {
    const lines = (word: string) => Array.from({ length: 500 }, (_, i) => `${word} line ${i}\n`).join('');
    await fx.project.write('a.txt', lines('alpha'));
    await fx.project.write('b.txt', lines('bravo'));
    fx.fake.push(
      { toolCalls: [call('delegate_task', { task: 'Read a.txt, then b.txt' })] },
      { text: 'done' },
    );
    const reads = (file: string) => ({
      toolCalls: [0, 2000, 4000].map((offset) => call('read', { path: file, offset })),
    });
    fx.fake.pushFor('explore', reads('a.txt'), reads('b.txt'), { text: 'Both read.' });
    const out = await runJson('Read the two files', [], { GEEKAGENT_CONTEXT_WINDOW: '4500' });
    expect(out.agents[0]!.status).toBe('completed');
    const child = fx.fake.requests.filter((request) => subAgentOf(request) === 'explore');
    expect(child).toHaveLength(3);
    // The window (4500 tokens, compacting above 80%) holds the second request (a.txt's outputs
    // whole) but not the third as it stands: a.txt's outputs are pruned, b.txt's stay whole.
    expect(toolResults(child[1]!).join('')).toContain('alpha line');
    const third = toolResults(child[2]!);
    for (const pruned of third.slice(0, 3))
      expect(pruned).toMatch(/^\[output pruned to save context: \d+ chars/);
    for (const whole of third.slice(3)) expect(whole).toContain('bravo line');
  });
});

describe('project agents and folder trust', () => {
  it('are ignored in an untrusted folder, listed by geekagent trust, used once trusted, and asked again when edited', async () => {
    const agentFile = '.geekagent/agents/reader.md';
    await fx.project.write(agentFile, '---\ndescription: reads\ntools: [read]\n---\nRead.\n');
    const untrusted = await fx.run(['-p', '/agents'], { trusted: false });
    expect(untrusted.stderr).toContain('ignoring .geekagent/agents (1 agent)');
    expect(untrusted.stdout).not.toMatch(/^reader/m);

    const trust = await runCli(['trust'], { project: fx.project, trusted: false });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain('  custom agent .geekagent/agents/reader.md (its tools and instructions)');
    const trusted = await fx.run(['-p', '/agents'], { trusted: false });
    expect(trusted.stderr).toBe('');
    expect(trusted.stdout).toMatch(/^reader — reads/m);

    await fx.project.write(agentFile, '---\ndescription: reads\ntools: ["*"]\n---\nDo anything.\n');
    const changed = await fx.run(['-p', '/agents'], { trusted: false });
    expect(changed.stderr).toMatch(
      /folder changed since you trusted it \(1 changed\): ignoring \.geekagent\/agents \(1 agent\)/,
    );
    expect(changed.stdout).not.toMatch(/^reader/m);
  });
});

describe('a sub-agent and the permission layer', () => {
  it('an ask tool of a child is refused in print mode as usual; "*" does not give it todo_write or delegate_task', async () => {
    await fx.project.write('.geekagent/agents/writer.md', '---\ndescription: writes\ntools: ["*"]\n---\n');
    fx.fake.push(
      { toolCalls: [call('delegate_task', { task: 'write it', agent: 'writer' })] },
      { text: 'done' },
    );
    fx.fake.pushFor(
      'writer',
      { toolCalls: [call('write', { path: 'out.txt', content: 'x' })] },
      (request) => ({
        text: `child saw: ${toolResults(request).join(' | ')}`,
      }),
    );
    const out = await runJson('Write via the child');
    const child = fx.fake.requests.find((request) => subAgentOf(request) === 'writer')!;
    const offered = (child.body.tools ?? []).map((tool) => (tool.function as { name: string }).name);
    expect(offered).toContain('write');
    expect(offered).not.toContain('todo_write');
    expect(offered).not.toContain('delegate_task');
    expect(out.agents[0]!.tool_calls).toEqual([
      expect.objectContaining({ name: 'write', decision: 'refused', is_error: true }),
    ]);
    expect(out.tool_calls[0]!.result).toContain(
      'child saw: needs approval: run interactively or pass --allow write',
    );
    expect(existsSync(`${fx.project.dir}/out.txt`)).toBe(false);
  });
});
