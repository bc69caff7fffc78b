/**
 * `geekagent acp` end to end: the built CLI as an ACP agent subprocess, driven by the SDK's own
 * client (test/e2e/acp-client.ts) against the fake model — streaming, tool calls and permission
 * round trips, edits through the editor's buffers, a command in the editor's terminal, cancel,
 * loading an earlier session, an MCP server the editor passes, and folder trust.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { undoFilePath } from '../../src/permissions/undo.js';
import { itWithSandbox } from '../helpers/sandbox-gate.js';
import { isAlive, waitFor } from '../helpers/wait.js';
import { type Editor, editorFixture, markerServer } from './acp-client.js';
import { answersFileOf, cliFixture, FIXTURE_SERVERS, REPO_ROOT, toolMessages } from './harness.js';

const fx = cliFixture();
const editor = editorFixture(fx);

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

/** Every stdout line is a JSON-RPC 2.0 message: nothing else ever reaches the protocol stream. */
function expectOnlyProtocol(ed: Editor): void {
  expect(ed.stdoutLines.length).toBeGreaterThan(0);
  for (const line of ed.stdoutLines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
}

/** A machine without the sandbox's programs says so first in each session (sandbox.test.ts). */
const SANDBOX_NOTICE = /^\s*sandbox unavailable:[^\n]*\n*/;
const withoutSandboxNotice = (text: string): string => text.replace(SANDBOX_NOTICE, '');
const isSandboxNotice = (update: unknown): boolean => {
  const u = update as { sessionUpdate?: string; content?: { text?: unknown } };
  return (
    u.sessionUpdate === 'agent_message_chunk' &&
    typeof u.content?.text === 'string' &&
    SANDBOX_NOTICE.test(u.content.text)
  );
};

describe('geekagent acp', () => {
  it('streams a turn with reasoning and a write tool call; the permission round trip saves "always"', async () => {
    fx.fake.push(
      {
        reasoning: 'I should write the file',
        toolCalls: [call('write', { path: 'notes.txt', content: 'hi\n' })],
      },
      { text: 'done writing' },
    );
    const ed = editor({ answers: ['allow_always'] });
    await ed.initialize();
    const id = await ed.newSession();
    expect(await ed.prompt(id, 'write notes')).toBe('end_turn');

    const target = path.join(fx.project.dir, 'notes.txt');
    expect(readFileSync(target, 'utf8')).toBe('hi\n');
    expect(ed.of(id, 'agent_thought_chunk').length).toBeGreaterThan(0);
    const started = ed.of(id, 'tool_call')[0];
    expect(started).toMatchObject({
      kind: 'edit',
      title: 'Write notes.txt',
      status: 'pending',
      rawInput: { path: 'notes.txt', content: 'hi\n' },
      locations: [{ path: target }],
    });
    const toolCallId = started?.sessionUpdate === 'tool_call' ? started.toolCallId : '';
    // The question names the call it is about, with all four answers.
    expect(ed.permissions).toHaveLength(1);
    expect(ed.permissions[0]?.toolCall.toolCallId).toBe(toolCallId);
    expect(ed.permissions[0]?.options.map((option) => option.kind)).toEqual([
      'allow_once',
      'allow_always',
      'reject_once',
      'reject_always',
    ]);
    const ended = ed
      .of(id, 'tool_call_update')
      .find((update) => 'status' in update && update.status === 'completed');
    expect(ended).toMatchObject({
      toolCallId,
      content: expect.arrayContaining([
        { type: 'diff', path: realpathSync(target), oldText: null, newText: 'hi\n' },
      ]),
    });
    expect(ed.text(id)).toContain('done writing');
    // "Always" is saved as the TUI saves it: an allow rule in the person's answers for the folder.
    const answers = JSON.parse(readFileSync(answersFileOf(fx.project), 'utf8'));
    expect(answers.tools.write).toBe('allow');
    // The slash commands reached the editor.
    await waitFor(() => ed.of(id, 'available_commands_update').length > 0, { what: 'the command list' });
    const commands = ed.of(id, 'available_commands_update')[0];
    expect(
      commands?.sessionUpdate === 'available_commands_update' &&
        commands.availableCommands.map((c) => c.name),
    ).toContain('undo');
    expectOnlyProtocol(ed);
  });

  it('the todo list reaches the editor as its plan', async () => {
    const todos = [
      { content: 'read the code', status: 'completed' },
      { content: 'write the fix', status: 'in_progress' },
      { content: 'run the tests', status: 'pending' },
    ];
    fx.fake.push({ toolCalls: [call('todo_write', { todos })] }, { text: 'planned' });
    const ed = editor();
    await ed.initialize();
    const id = await ed.newSession();
    expect(await ed.prompt(id, 'plan it')).toBe('end_turn');
    expect(ed.of(id, 'plan')).toEqual([
      {
        sessionUpdate: 'plan',
        entries: todos.map((todo) => ({ ...todo, priority: 'medium' })),
      },
    ]);
    expect(ed.of(id, 'tool_call')[0]).toMatchObject({ kind: 'think', title: 'Update the todo list' });
  });

  it('a rejected call is not run and the model is told', async () => {
    fx.fake.push({ toolCalls: [call('write', { path: 'no.txt', content: 'x' })] }, { text: 'ok' });
    const ed = editor({ answers: ['reject_once'] });
    await ed.initialize();
    const id = await ed.newSession();
    expect(await ed.prompt(id, 'try')).toBe('end_turn');
    expect(existsSync(path.join(fx.project.dir, 'no.txt'))).toBe(false);
    expect(toolMessages(fx.fake.requests[1]!.body)[0]).toContain('declined');
    expect(
      ed.of(id, 'tool_call_update').some((update) => 'status' in update && update.status === 'failed'),
    ).toBe(true);
  });

  it('reads and edits go through the editor (fs/*): the buffer is edited, the disk file untouched, undo recorded', async () => {
    const file = await fx.project.write('src/a.txt', 'disk text\n');
    const real = realpathSync(file);
    const buffers = new Map([[real, 'buffer text\n']]);
    fx.fake.push(
      { toolCalls: [call('read', { path: 'src/a.txt' })] },
      { toolCalls: [call('patch', { path: 'src/a.txt', hunks: [{ old: 'buffer', new: 'edited' }] })] },
      { text: 'patched it' },
    );
    const ed = editor({ caps: { fs: { readTextFile: true, writeTextFile: true } }, buffers });
    await ed.initialize();
    const id = await ed.newSession();
    expect(await ed.prompt(id, 'edit a.txt')).toBe('end_turn');
    // The model saw the unsaved buffer, not the disk.
    expect(toolMessages(fx.fake.requests[1]!.body)[0]).toContain('buffer text');
    expect(ed.writes).toEqual([{ path: real, content: 'edited text\n' }]);
    expect(readFileSync(file, 'utf8')).toBe('disk text\n');
    const undo = readFileSync(undoFilePath(path.join(fx.project.home, '.geekagent'), fx.project.dir), 'utf8');
    expect(undo).toContain('buffer text');
    const diff = ed.toolContents(id).find((content) => content.type === 'diff');
    expect(diff).toEqual({ type: 'diff', path: real, oldText: 'buffer text\n', newText: 'edited text\n' });
  });

  it('run_shell runs in the editor terminal (terminal/*) and its output reaches the model', async () => {
    fx.fake.push({ toolCalls: [call('run_shell', { command: 'echo from-terminal' })] }, { text: 'ran' });
    const ed = editor({ caps: { terminal: true }, env: { GEEKAGENT_SANDBOX: 'off' } });
    await ed.initialize();
    const id = await ed.newSession();
    expect(await ed.prompt(id, 'run it')).toBe('end_turn');
    expect(ed.terminals).toHaveLength(1);
    expect(ed.terminals[0]).toMatchObject({
      command: '/bin/sh',
      args: ['-c', 'echo from-terminal'],
      cwd: fx.project.dir,
      released: true,
    });
    expect(toolMessages(fx.fake.requests[1]!.body)[0]).toContain('from-terminal');
    const shown = ed.toolContents(id).filter((content) => content.type === 'terminal');
    expect(shown[0]).toEqual({ type: 'terminal', terminalId: 'term-1' });
    // Asked (the sandbox is off) and allowed once.
    expect(ed.permissions).toHaveLength(1);
  });

  itWithSandbox(
    'with the sandbox on, the editor terminal runs the confined command line, unasked',
    async () => {
      fx.fake.push({ toolCalls: [call('run_shell', { command: 'echo confined-run' })] }, { text: 'ran' });
      const ed = editor({ caps: { terminal: true } });
      await ed.initialize();
      const id = await ed.newSession();
      expect(await ed.prompt(id, 'run it')).toBe('end_turn');
      expect(ed.permissions).toHaveLength(0);
      expect(ed.terminals).toHaveLength(1);
      const line = ed.terminals[0]?.args[1] ?? '';
      expect(line).not.toBe('echo confined-run');
      expect(line).toContain('bwrap');
      expect(toolMessages(fx.fake.requests[1]!.body)[0]).toContain('confined-run');
    },
  );

  it('loads the protocol SDK (which print mode never loads: startup.test.ts)', async () => {
    const log = path.join(fx.project.home, 'modules.log');
    const ed = editor({
      env: {
        NODE_OPTIONS: `--import=${path.join(REPO_ROOT, 'test', 'fixtures', 'modules', 'watch.mjs')}`,
        MODULE_LOG: log,
      },
    });
    await ed.initialize();
    expect(readFileSync(log, 'utf8').split('\n')).toContain('@agentclientprotocol/sdk');
  });

  it('session/cancel ends a running turn within 2 s and the session goes on', async () => {
    fx.fake.push({ kind: 'hang', afterText: 'partial ' });
    const ed = editor();
    await ed.initialize();
    const id = await ed.newSession();
    const answer = ed.prompt(id, 'long task');
    await waitFor(() => ed.text(id).includes('partial'), { what: 'the first streamed text' });
    const started = Date.now();
    await ed.connection.agent.notify('session/cancel', { sessionId: id });
    expect(await answer).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(2000);
    fx.fake.push({ text: 'second answer' });
    expect(await ed.prompt(id, 'again')).toBe('end_turn');
    expect(ed.text(id)).toContain('second answer');
  });

  it('session/cancel withdraws an open permission question and ends the turn within 2 s', async () => {
    fx.fake.push({ toolCalls: [call('write', { path: 'held.txt', content: 'x' })] }, { text: 'after' });
    const ed = editor({ answers: ['wait'] });
    await ed.initialize();
    const id = await ed.newSession();
    const answer = ed.prompt(id, 'write it');
    await waitFor(() => ed.permissions.length === 1, { what: 'the permission question' });
    const started = Date.now();
    await ed.connection.agent.notify('session/cancel', { sessionId: id });
    expect(await answer).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(existsSync(path.join(fx.project.dir, 'held.txt'))).toBe(false);
  });

  it('offers the models of models.json as the session model option and switches with it', async () => {
    const home = path.join(fx.project.home, '.geekagent');
    await mkdir(home, { recursive: true });
    await writeFile(
      path.join(home, 'models.json'),
      JSON.stringify({
        models: { second: { provider: 'openai', model: 'second-model', baseURL: fx.fake.url } },
      }),
    );
    const ed = editor();
    await ed.initialize();
    const created = await ed.connection.agent.request('session/new', { cwd: fx.project.dir, mcpServers: [] });
    const option = created.configOptions?.[0];
    expect(option).toMatchObject({
      id: 'model',
      category: 'model',
      type: 'select',
      currentValue: 'fake-model',
    });
    expect(JSON.stringify(option)).toContain('"value":"second"');
    const id = created.sessionId;
    await expect(
      ed.connection.agent.request('session/set_config_option', {
        sessionId: id,
        configId: 'model',
        value: 'nope',
      }),
    ).rejects.toMatchObject({ code: -32602 });
    const switched = await ed.connection.agent.request('session/set_config_option', {
      sessionId: id,
      configId: 'model',
      value: 'second',
    });
    expect(switched.configOptions[0]).toMatchObject({ currentValue: 'second' });
    fx.fake.push({ text: 'from the second model' });
    expect(await ed.prompt(id, 'hi')).toBe('end_turn');
    expect(fx.fake.requests[0]?.body.model).toBe('second-model');
  });

  it('offers the approval modes as session modes: set_mode switches them, leaving plan mode is asked and reported', async () => {
    const ed = editor({ answers: ['allow_always'] });
    await ed.initialize();
    const created = await ed.connection.agent.request('session/new', { cwd: fx.project.dir, mcpServers: [] });
    expect(created.modes?.currentModeId).toBe('default');
    expect(created.modes?.availableModes.map((mode) => mode.id)).toEqual(
      expect.arrayContaining(['default', 'accept-edits', 'plan']),
    );
    const id = created.sessionId;
    await expect(
      ed.connection.agent.request('session/set_mode', { sessionId: id, modeId: 'nope' }),
    ).rejects.toMatchObject({ code: -32602 });

    // Plan: a write is refused unasked; the plan is offered, and "accept edits" carries it out.
    await ed.connection.agent.request('session/set_mode', { sessionId: id, modeId: 'plan' });
    fx.fake.push(
      { toolCalls: [call('write', { path: 'plan.txt', content: 'x' })] },
      { toolCalls: [call('exit_plan_mode', { plan: '1. write plan.txt' })] },
      { toolCalls: [call('write', { path: 'plan.txt', content: 'x' })] },
      { text: 'written' },
    );
    expect(await ed.prompt(id, 'plan it')).toBe('end_turn');
    const [planQuestion, ...others] = ed.permissions;
    expect(others).toEqual([]);
    expect(planQuestion?.options.map((option) => option.kind)).toEqual([
      'allow_once',
      'allow_always',
      'reject_once',
    ]);
    expect(JSON.stringify(planQuestion?.toolCall)).toContain('1. write plan.txt');
    expect(ed.of(id, 'current_mode_update')).toEqual([
      expect.objectContaining({ currentModeId: 'plan' }),
      expect.objectContaining({ currentModeId: 'accept-edits' }),
    ]);
    expect(toolMessages(fx.fake.requests[1]!.body).at(-1)).toMatch(/^plan mode: write was not run/);
    expect(readFileSync(path.join(fx.project.dir, 'plan.txt'), 'utf8')).toBe('x');
  });

  it('an image in the prompt reaches a model that takes images; one that does not gets a note, nothing sent', async () => {
    // A real 1x1 PNG (the fake, as the API, sniffs the bytes).
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    ).toString('base64');
    const prompt = (sessionId: string, ed: Editor) =>
      ed.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [
          { type: 'text', text: 'what is this?' },
          { type: 'image', mimeType: 'image/png', data: png, uri: 'file:///tmp/shot.png' },
        ],
      });
    fx.fake.push({ text: 'a dot' }, { text: 'no eyes' });
    const seeing = editor({ env: { GEEKAGENT_ACCEPTS_MEDIA: '1' } });
    const init = await seeing.initialize();
    expect(JSON.stringify(init)).toContain('"image":true');
    const id = await seeing.newSession();
    expect((await prompt(id, seeing)).stopReason).toBe('end_turn');
    const sent = JSON.stringify(fx.fake.requests[0]!.body.messages);
    expect(sent).toContain(`data:image/png;base64,${png}`);

    const blind = editor({ env: { GEEKAGENT_ACCEPTS_MEDIA: '0' } });
    await blind.initialize();
    const other = await blind.newSession();
    expect((await prompt(other, blind)).stopReason).toBe('end_turn');
    expect(JSON.stringify(fx.fake.requests[1]!.body.messages)).not.toContain('data:image/png');
    expect(JSON.stringify(blind.of(other, 'agent_message_chunk'))).toContain('not attached: /tmp/shot.png');
  });

  it('session/load replays an earlier session and continues it', async () => {
    fx.fake.push({ toolCalls: [call('get_current_time', {})] }, { text: 'noted the number 42' });
    const first = editor();
    await first.initialize();
    const id = await first.newSession();
    expect(await first.prompt(id, 'remember 42')).toBe('end_turn');
    expect(await first.close()).toBe(0);

    const second = editor();
    await second.initialize();
    await second.connection.agent.request('session/load', {
      sessionId: id,
      cwd: fx.project.dir,
      mcpServers: [],
    });
    // Everything replayed before the load answered.
    const replayed = second.of(id).filter((update) => !isSandboxNotice(update));
    expect(replayed[0]).toEqual({
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text: 'remember 42' },
    });
    expect(
      replayed.some((update) => update.sessionUpdate === 'tool_call' && update.title === 'get_current_time'),
    ).toBe(true);
    expect(second.text(id)).toContain('noted the number 42');
    fx.fake.push({ text: 'it was 42' });
    expect(await second.prompt(id, 'what was it?')).toBe('end_turn');
    const sent = JSON.stringify(fx.fake.requests[2]!.body.messages);
    expect(sent).toContain('remember 42');
    expect(sent).toContain('noted the number 42');
  });

  it('runs an MCP server the editor passes in session/new, and stops it when the editor leaves', async () => {
    const marker = path.join(fx.project.dir, 'marker.log');
    fx.fake.push({ toolCalls: [call('mcp_demo_dice', {})] }, { text: 'rolled' });
    const ed = editor();
    await ed.initialize();
    const id = await ed.newSession([markerServer('demo', marker)]);
    expect(await ed.prompt(id, 'roll')).toBe('end_turn');
    expect(toolMessages(fx.fake.requests[1]!.body)[0]).toMatch(/Roll: [1-6]/);
    const pid = Number(/started (\d+)/.exec(readFileSync(marker, 'utf8'))?.[1]);
    expect(isAlive(pid)).toBe(true);
    expect(await ed.close()).toBe(0);
    await waitFor(() => !isAlive(pid), { what: 'the editor’s server to stop' });
  });

  it("declines a server's elicitation form with a note in the session", async () => {
    const pidFile = path.join(fx.project.dir, 'asker.pid');
    const results = path.join(fx.project.dir, 'asker.log');
    const ed = editor();
    await ed.initialize();
    const id = await ed.newSession([
      {
        name: 'asker',
        command: process.execPath,
        args: [path.join(FIXTURE_SERVERS, 'server-requests.mjs')],
        env: [
          { name: 'RESULT_LOG', value: results },
          { name: 'PID_FILE', value: pidFile },
        ],
      },
    ]);
    const pid = Number(
      await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8'), { what: 'the server' }),
    );
    process.kill(pid, 'SIGUSR2');
    await waitFor(
      () => existsSync(results) && readFileSync(results, 'utf8').includes('elicitation: decline'),
      {
        what: 'the declined form',
      },
    );
    await waitFor(() => ed.text(id).includes('declined: forms cannot be filled in'), { what: 'the note' });
    expect(ed.text(id)).toContain('MCP server asker asked for a form (name)');
  });

  it('in an untrusted folder the project servers stay off and the first message says how to trust it', async () => {
    const marker = path.join(fx.project.dir, 'project-server.log');
    await fx.project.mcpServers({
      proj: { command: process.execPath, args: [path.join(FIXTURE_SERVERS, 'marker.mjs'), marker] },
    });
    fx.fake.push({ text: 'hello' });
    const ed = editor();
    await ed.initialize();
    const id = await ed.newSession();
    expect(await ed.prompt(id, 'hi')).toBe('end_turn');
    const said = withoutSandboxNotice(ed.text(id));
    expect(said.indexOf('folder not trusted')).toBe(0);
    expect(said).toContain('geekagent trust');
    expect(said).toContain('hello');
    expect(existsSync(marker)).toBe(false);
    expect(JSON.stringify(fx.fake.requests[0]!.body.tools ?? [])).not.toContain('mcp_proj_');
  });
});
