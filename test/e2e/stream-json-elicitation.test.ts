/**
 * An MCP server's form under `--input-format stream-json` (issue 40), on the built CLI: a 2026
 * server's `input_required` round (mrtr.mjs) and a 2025 server's `elicitation/create`
 * (elicit-tool.mjs) both reach the controlling program as an `elicitation` control_request; its
 * accept (content checked against the form) reaches the tool, its decline is a decline, and an
 * error answer or content the form does not allow is a cancel with a stderr note, never a decline;
 * a form still waiting when the run is interrupted is withdrawn with control_cancel_request.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';
import { CLI, cliArgs, cliFixture, testEnv } from './harness.js';
import { type Line, userLine as user } from './stream-json-lines.js';

const fx = cliFixture();

const answer = (response: Record<string, unknown>) =>
  `${JSON.stringify({ type: 'control_response', response })}\n`;

/** The CLI with stream input and output: lines as they come, stdin written on demand. */
function live() {
  const child = spawn(
    process.execPath,
    [
      CLI,
      ...cliArgs(
        ['--input-format', 'stream-json', '--output-format', 'stream-json', '--allow', 'mcp_*'],
        true,
      ),
    ],
    { cwd: fx.project.dir, env: testEnv({ project: fx.project, modelUrl: fx.fake.url }), stdio: 'pipe' },
  );
  const lines: Line[] = [];
  let partial = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts) lines.push(JSON.parse(part) as Line);
    for (const wake of waiters) wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const closed = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      for (const wake of waiters) wake();
      resolve(code);
    }),
  );
  /** The first line from `from` on that matches. */
  const next = (match: (line: Line) => boolean, from: number) =>
    new Promise<Line>((resolve, reject) => {
      const check = () => {
        const found = lines.slice(from).find(match);
        if (found) {
          waiters.delete(check);
          resolve(found);
        } else if (child.exitCode !== null) {
          waiters.delete(check);
          reject(new Error(`exited without the line\nstdout: ${JSON.stringify(lines)}\nstderr: ${stderr}`));
        }
      };
      waiters.add(check);
      check();
    });
  return { child, lines, next, stderr: () => stderr, closed };
}

const SERVERS = [
  {
    era: '2026 (input_required round)',
    name: 'm',
    script: path.join(REPO_ROOT, 'test', 'fixtures', 'mcp2026', 'mrtr.mjs'),
    question: 'What is your name?',
    said: { decline: 'declined', cancel: 'cancelled' },
  },
  {
    era: '2025 (elicitation/create)',
    name: 'e',
    script: path.join(REPO_ROOT, 'test', 'fixtures', 'mcp', 'elicit-tool.mjs'),
    question: 'Who are you?',
    said: { decline: 'decline', cancel: 'cancel' },
  },
];

describe('a server asking for input, with stream-json input', () => {
  for (const server of SERVERS) {
    it(`${server.era}: the program answers the form; accept, error, unfitting content and decline`, async () => {
      await fx.project.mcpServers({ [server.name]: { command: process.execPath, args: [server.script] } });
      const tool = `mcp_${server.name}_ask_name`;
      const run = live();
      /** One turn: the model calls the tool, the program answers the form; the tool's result. */
      const turn = async (reply: (requestId: string) => Record<string, unknown>): Promise<string> => {
        fx.fake.push({ toolCalls: [{ name: tool, arguments: '{}' }] }, { text: 'done' });
        const mark = run.lines.length;
        run.child.stdin.write(user('ask my name'));
        const ask = await run.next((line) => line.type === 'control_request', mark);
        expect(ask.request).toEqual({
          subtype: 'elicitation',
          mcp_server_name: server.name,
          message: server.question,
          mode: 'form',
          requested_schema: {
            type: 'object',
            properties: { name: expect.objectContaining({ type: 'string' }) },
            required: ['name'],
          },
        });
        run.child.stdin.write(answer(reply(ask.request_id)));
        await run.next((line) => line.type === 'result', mark);
        const result = run.lines
          .slice(mark)
          .find((line) => line.type === 'user' && line.message.content[0]?.type === 'tool_result');
        return JSON.stringify(result?.message.content[0].content);
      };
      const success = (response: unknown) => (id: string) => ({
        subtype: 'success',
        request_id: id,
        response,
      });

      expect(await turn(success({ action: 'accept', content: { name: 'Ada' } }))).toContain('hello, Ada');
      expect(await turn((id) => ({ subtype: 'error', request_id: id, error: 'no form UI' }))).toContain(
        server.said.cancel,
      );
      expect(run.stderr()).toContain(
        `geekagent: MCP server ${server.name} asked for input; cancelled: the client answered with an error: no form UI`,
      );
      expect(await turn(success({ action: 'accept', content: { name: 5 } }))).toContain(server.said.cancel);
      expect(run.stderr()).toContain('cancelled: the accepted content does not fit the form: ');
      expect(await turn(success({ action: 'decline' }))).toContain(server.said.decline);
      run.child.stdin.end();
      expect(await run.closed, run.stderr()).toBe(0);
      // Nothing said the form was declined when it was not.
      expect(run.stderr()).not.toContain('declined: nobody can answer');
      expect(run.lines.filter((line) => line.type === 'system' && line.subtype === 'error')).toEqual([]);
    });
  }
});

describe('a form waiting for the program when the run is interrupted', () => {
  it('is withdrawn with control_cancel_request naming its id, and the run ends', async () => {
    await fx.project.mcpServers({ m: { command: process.execPath, args: [SERVERS[0]!.script] } });
    fx.fake.push({ toolCalls: [{ name: 'mcp_m_ask_name', arguments: '{}' }] }, { text: 'done' });
    const run = live();
    run.child.stdin.write(user('ask my name'));
    const ask = await run.next((line) => line.type === 'control_request', 0);
    run.child.kill('SIGINT');
    await run.closed;
    expect(run.lines).toContainEqual({ type: 'control_cancel_request', request_id: ask.request_id });
  });
});
