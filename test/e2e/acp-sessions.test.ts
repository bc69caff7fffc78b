/**
 * ACP sessions that survive a reconnect, end to end (the built `geekagent acp`, the SDK's client,
 * the fake model): the mode and model chosen belong to the saved session, a session with no turn
 * loads, an unknown id is the SDK's "not found", session/list, resume, close and fork, the exit
 * code of a command in the client's terminal, usage_update after turns, and "always reject" saved.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ForkSessionResponse, ListSessionsResponse } from '@agentclientprotocol/sdk/unstable';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { type Editor, editorFixture } from './acp-client.js';
import { answersFileOf, cliFixture, toolMessages } from './harness.js';

const fx = cliFixture();
const editor = editorFixture(fx);

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

/** The SDK's -32002 "not found", with the session named. */
const notFound = (sessionId: string) => ({ code: -32002, data: { sessionId } });

async function started(options: Parameters<typeof editor>[0] = {}): Promise<Editor> {
  const ed = editor(options);
  await ed.initialize();
  return ed;
}

function load(ed: Editor, sessionId: string) {
  return ed.connection.agent.request('session/load', { sessionId, cwd: fx.project.dir, mcpServers: [] });
}

describe('geekagent acp: sessions across reconnects', () => {
  it('a session with no turn keeps its mode and model: a new process loads it in plan mode, and a prompt writes nothing', async () => {
    const home = path.join(fx.project.home, '.geekagent');
    await mkdir(home, { recursive: true });
    await writeFile(
      path.join(home, 'models.json'),
      JSON.stringify({
        models: { second: { provider: 'openai', model: 'second-model', baseURL: fx.fake.url } },
      }),
    );
    const first = await started();
    const id = await first.newSession();
    await first.connection.agent.request('session/set_mode', { sessionId: id, modeId: 'plan' });
    await first.connection.agent.request('session/set_config_option', {
      sessionId: id,
      configId: 'model',
      value: 'second',
    });
    expect(await first.close()).toBe(0);

    const second = await started();
    const loaded = await load(second, id);
    expect(loaded?.modes?.currentModeId).toBe('plan');
    expect(loaded?.configOptions?.[0]).toMatchObject({ id: 'model', currentValue: 'second' });
    fx.fake.push(
      { toolCalls: [call('write', { path: 'planned.txt', content: 'x' })] },
      { text: 'only a plan' },
    );
    expect(await second.prompt(id, 'write planned.txt')).toBe('end_turn');
    expect(existsSync(path.join(fx.project.dir, 'planned.txt'))).toBe(false);
    expect(toolMessages(fx.fake.requests[1]!.body).at(-1)).toMatch(/^plan mode: write was not run/);
    expect(fx.fake.requests[0]?.body.model).toBe('second-model');
    expect(second.permissions).toEqual([]);
  });

  it('a mode left through exit_plan_mode is the saved one too', async () => {
    const first = await started({ answers: ['allow_always'] });
    const id = await first.newSession();
    await first.connection.agent.request('session/set_mode', { sessionId: id, modeId: 'plan' });
    fx.fake.push({ toolCalls: [call('exit_plan_mode', { plan: '1. nothing' })] }, { text: 'ok' });
    expect(await first.prompt(id, 'plan')).toBe('end_turn');
    expect(first.of(id, 'current_mode_update').at(-1)).toMatchObject({ currentModeId: 'accept-edits' });
    expect(await first.close()).toBe(0);

    const second = await started();
    expect((await load(second, id))?.modes?.currentModeId).toBe('accept-edits');
  });

  it('an unknown session id is the SDK’s sessionNotFound (-32002) for load, resume, fork, prompt and close', async () => {
    const ed = await started();
    await expect(load(ed, 'nosuchsession')).rejects.toMatchObject(notFound('nosuchsession'));
    await expect(
      ed.connection.agent.request('session/resume', { sessionId: 'gone1234', cwd: fx.project.dir }),
    ).rejects.toMatchObject(notFound('gone1234'));
    await expect(
      ed.connection.agent.request<ForkSessionResponse>('session/fork', {
        sessionId: 'gone1234',
        cwd: fx.project.dir,
      }),
    ).rejects.toMatchObject(notFound('gone1234'));
    await expect(ed.prompt('gone1234', 'hi')).rejects.toMatchObject(notFound('gone1234'));
    // The SDK's client turns a -32002 to session/close into success by design: the wire has it.
    await ed.connection.agent.request('session/close', { sessionId: 'gone1234' });
    const errors = ed.stdoutLines
      .map((line) => JSON.parse(line) as { error?: { code: number } })
      .filter((message) => message.error?.code === -32002);
    expect(errors).toHaveLength(5);
  });

  it('advertises list, resume, close and fork; lists saved sessions, resumes without replay, closes, forks a copy', async () => {
    const first = await started();
    const talked = await first.newSession();
    fx.fake.push({ text: 'noted the number 42' });
    expect(await first.prompt(talked, 'remember 42')).toBe('end_turn');
    const empty = await first.newSession();
    expect(await first.close()).toBe(0);

    const ed = editor();
    const init = await ed.initialize();
    expect(init.agentCapabilities?.sessionCapabilities).toMatchObject({
      list: {},
      resume: {},
      close: {},
      fork: {},
    });
    const here: ListSessionsResponse = await ed.connection.agent.request('session/list', {
      cwd: fx.project.dir,
    });
    expect(here.sessions.map((session) => session.sessionId).sort()).toEqual([talked, empty].sort());
    expect(here.sessions.find((session) => session.sessionId === talked)).toMatchObject({
      cwd: fx.project.dir,
      title: 'remember 42',
      updatedAt: expect.any(String),
    });
    // Without a folder: every folder's sessions, each with its folder.
    const everywhere = await ed.connection.agent.request('session/list', {});
    expect(everywhere.sessions.find((session) => session.sessionId === talked)?.cwd).toBe(fx.project.dir);

    // Resume: the conversation goes on, nothing is sent again.
    await ed.connection.agent.request('session/resume', { sessionId: talked, cwd: fx.project.dir });
    expect(ed.of(talked, 'user_message_chunk')).toEqual([]);
    fx.fake.push({ text: 'it was 42' });
    expect(await ed.prompt(talked, 'what was it?')).toBe('end_turn');
    expect(JSON.stringify(fx.fake.requests[1]!.body.messages)).toContain('remember 42');

    // Fork: a new id with the conversation so far; the source does not get the fork's turns.
    const forked = await ed.connection.agent.request<ForkSessionResponse>('session/fork', {
      sessionId: talked,
      cwd: fx.project.dir,
    });
    expect(forked.sessionId).not.toBe(talked);
    fx.fake.push({ text: 'in the fork' });
    expect(await ed.prompt(forked.sessionId, 'fork turn')).toBe('end_turn');
    const forkSent = JSON.stringify(fx.fake.requests[2]!.body.messages);
    expect(forkSent).toContain('remember 42');
    expect(forkSent).toContain('it was 42');

    // Close: the session is no longer open on this connection, and stays saved.
    await ed.connection.agent.request('session/close', { sessionId: talked });
    await expect(ed.prompt(talked, 'still there?')).rejects.toMatchObject(notFound(talked));
    const again = await started();
    await load(again, talked);
    const replayed = again.of(talked, 'user_message_chunk');
    expect(replayed.map((update) => update.sessionUpdate === 'user_message_chunk' && update.content)).toEqual(
      [
        { type: 'text', text: 'remember 42' },
        { type: 'text', text: 'what was it?' },
      ],
    );
  });

  it('session/close cancels a running turn', async () => {
    fx.fake.push({ kind: 'hang', afterText: 'partial ' });
    const ed = await started();
    const id = await ed.newSession();
    const answer = ed.prompt(id, 'long task');
    await waitFor(() => ed.text(id).includes('partial'), { what: 'the first streamed text' });
    await ed.connection.agent.request('session/close', { sessionId: id });
    expect(await answer).toBe('cancelled');
  });

  it("a failing command in the client's terminal reports its exit code from terminal/wait_for_exit", async () => {
    fx.fake.push({ toolCalls: [call('run_shell', { command: 'echo failing; exit 3' })] }, { text: 'saw it' });
    const ed = await started({
      caps: { terminal: true },
      env: { GEEKAGENT_SANDBOX: 'off' },
      exitStatusInOutput: false,
    });
    const id = await ed.newSession();
    expect(await ed.prompt(id, 'run it')).toBe('end_turn');
    expect(ed.terminals[0]?.exit?.exitCode).toBe(3);
    const result = toolMessages(fx.fake.requests[1]!.body)[0];
    expect(result).toContain('failing');
    expect(result).toContain('(exit code 3)');
  });

  it('sends usage_update after each turn: the context used and the window', async () => {
    fx.fake.push(
      { text: 'one', usage: { prompt_tokens: 1234, completion_tokens: 5 } },
      { text: 'two', usage: { prompt_tokens: 2345, completion_tokens: 5 } },
    );
    const ed = await started({ env: { GEEKAGENT_CONTEXT_WINDOW: '50000' } });
    const id = await ed.newSession();
    expect(await ed.prompt(id, 'first')).toBe('end_turn');
    expect(ed.of(id, 'usage_update')).toEqual([{ sessionUpdate: 'usage_update', used: 1234, size: 50000 }]);
    expect(await ed.prompt(id, 'second')).toBe('end_turn');
    expect(ed.of(id, 'usage_update').at(-1)).toEqual({
      sessionUpdate: 'usage_update',
      used: 2345,
      size: 50000,
    });
  });

  it('"always reject" is saved like "always allow": a deny rule, so the next session refuses unasked', async () => {
    fx.fake.push({ toolCalls: [call('write', { path: 'never.txt', content: 'x' })] }, { text: 'refused' });
    const first = await started({ answers: ['reject_always'] });
    const id = await first.newSession();
    expect(await first.prompt(id, 'write it')).toBe('end_turn');
    expect(first.permissions).toHaveLength(1);
    expect(JSON.parse(readFileSync(answersFileOf(fx.project), 'utf8')).tools.write).toBe('deny');
    expect(await first.close()).toBe(0);

    fx.fake.push(
      { toolCalls: [call('write', { path: 'never.txt', content: 'x' })] },
      { text: 'refused again' },
    );
    const second = await started();
    const other = await second.newSession();
    expect(await second.prompt(other, 'write it again')).toBe('end_turn');
    expect(second.permissions).toEqual([]);
    expect(existsSync(path.join(fx.project.dir, 'never.txt'))).toBe(false);
    expect(toolMessages(fx.fake.requests[3]!.body).at(-1)).toMatch(/deny|denied|not allowed/i);
  });

  it('additionalDirectories are extra roots for the file tools, under the same rules; other folders stay out', async () => {
    const base = path.dirname(fx.project.dir);
    const extra = path.join(base, 'extra');
    await mkdir(extra, { recursive: true });
    await writeFile(path.join(extra, 'info.txt'), 'from the extra folder\n');
    await writeFile(path.join(base, 'elsewhere.txt'), 'not shared\n');
    fx.fake.push(
      { toolCalls: [call('read', { path: path.join(extra, 'info.txt') })] },
      { toolCalls: [call('write', { path: path.join(extra, 'new.txt'), content: 'written\n' })] },
      { toolCalls: [call('read', { path: path.join(base, 'elsewhere.txt') })] },
      { text: 'done' },
    );
    const ed = editor();
    const init = await ed.initialize();
    expect(init.agentCapabilities?.sessionCapabilities?.additionalDirectories).toEqual({});
    await expect(
      ed.connection.agent.request('session/new', {
        cwd: fx.project.dir,
        mcpServers: [],
        additionalDirectories: ['relative/dir'],
      }),
    ).rejects.toMatchObject({ code: -32602 });
    const { sessionId } = await ed.connection.agent.request('session/new', {
      cwd: fx.project.dir,
      mcpServers: [],
      additionalDirectories: [extra],
    });
    expect(await ed.prompt(sessionId, 'use the extra folder')).toBe('end_turn');
    expect(JSON.stringify(fx.fake.requests[0]!.body.messages[0])).toContain(extra);
    expect(toolMessages(fx.fake.requests[1]!.body).at(-1)).toContain('from the extra folder');
    // A write there is asked, as in the root (the editor answered "allow once").
    expect(ed.permissions).toHaveLength(1);
    expect(readFileSync(path.join(extra, 'new.txt'), 'utf8')).toBe('written\n');
    expect(toolMessages(fx.fake.requests[3]!.body).at(-1)).toContain('path outside root');
  });
});
