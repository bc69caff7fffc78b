/**
 * Skills through the built CLI and the fake model: both formats found in every location (project
 * before user, untrusted project skills listed but not loaded, a bad skill listed with file and
 * line), `/use` limiting the visible and callable tools, `use_skill` by the model, a whitelist by
 * MCP pattern, `--skill` in print mode, a skill surviving `--continue` and compaction, and the
 * catalog budget's overflow reported by `/skills`.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-model.js';
import { userSessionsDir } from '../helpers/session-files.js';
import { cliFixture, DEMO_SERVER, parseJsonOutput, REPO_ROOT } from './harness.js';

// run_shell stands in for an asked tool here: unconfined, so it is asked as before issue 27.
const fx = cliFixture({ env: { GEEKAGENT_SANDBOX: 'off' } });

// run_shell as the asked tool: a confined command would run unasked (sandbox-mcp.test.ts covers that).
const UNCONFINED = { env: { GEEKAGENT_SANDBOX: 'off' } };
const run = async (args: string[], options: { trusted?: boolean; env?: Record<string, string> } = {}) => {
  const result = await fx.run(args, { ...options });
  expect(result.code, result.stderr).toBe(0);
  return result;
};

/** The described system's format: `description:` and a `tools:` whitelist. */
const described = (description: string, tools: string[], body: string) =>
  `---\ndescription: ${description}\ntools: [${tools.join(', ')}]\n---\n${body}\n`;
/** The Agent Skills format: `name`, `description`, `allowed-tools`. */
const spec = (name: string, description: string, allowed: string | undefined, body: string) =>
  `---\nname: ${name}\ndescription: "${description}"\n${allowed ? `allowed-tools: ${allowed}\n` : ''}license: MIT\nmetadata:\n  author: someone\n---\n${body}\n`;

const toolNames = (request: RecordedRequest) =>
  (request.body.tools ?? []).map((tool) => (tool.function as { name: string }).name).sort();
const systemPrompt = (request: RecordedRequest) => String(request.body.messages[0]?.content);

async function userSkill(relative: string, content: string): Promise<void> {
  const file = path.join(fx.project.home, relative, 'SKILL.md');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

describe('skills', () => {
  it('finds both formats in every project and user location; project wins; bad skills listed with their error', async () => {
    await fx.project.write('.git/HEAD', 'ref: refs/heads/main\n');
    await fx.project.write('skills/one/SKILL.md', described('First skill', ['read'], 'Body one.'));
    await fx.project.write(
      '.geekagent/skills/two/SKILL.md',
      spec('two', 'Second skill', 'read search', 'Body two.'),
    );
    await fx.project.write(
      '.agents/skills/three/SKILL.md',
      spec('three', 'Third skill', undefined, 'Body three.'),
    );
    await fx.project.write('.claude/skills/four/SKILL.md', described('Fourth skill', ['glob'], 'Body four.'));
    // From the working folder up to the git root: a skill one folder up is found too.
    await fx.project.write('sub/.keep', '');
    await fx.project.write('skills/five/SKILL.md', spec('five', 'Fifth skill', undefined, 'Body five.'));
    await userSkill('.geekagent/skills/six', described('Sixth skill', ['read'], 'Body six.'));
    await userSkill('.agents/skills/seven', spec('seven', 'Seventh skill', undefined, 'Body seven.'));
    await userSkill('.agents/skills/one', spec('one', 'User copy of one', undefined, 'User body.'));
    await fx.project.write(
      'skills/broken/SKILL.md',
      '---\nname: broken\ndescription: "never closed\n---\nx\n',
    );
    await fx.project.write('skills/toolong/SKILL.md', `---\ndescription: ${'x'.repeat(1025)}\n---\n`);
    await fx.project.write('skills/Upper/SKILL.md', '---\ndescription: fine\n---\n');
    // The spec: the name is the folder's; compatibility at most 500 characters.
    await fx.project.write('skills/folder/SKILL.md', spec('other', 'Misnamed skill', undefined, 'Never.'));
    await fx.project.write(
      'skills/compat/SKILL.md',
      `---\nname: compat\ndescription: Too demanding\ncompatibility: ${'y'.repeat(501)}\n---\n`,
    );

    const listed = (await run(['-p', '/skills', '--cwd', path.join(fx.project.dir, 'sub')])).stdout;
    for (const [name, description] of [
      ['one', 'First skill'],
      ['two', 'Second skill'],
      ['three', 'Third skill'],
      ['four', 'Fourth skill'],
      ['five', 'Fifth skill'],
      ['six', 'Sixth skill'],
      ['seven', 'Seventh skill'],
    ])
      expect(listed).toMatch(
        new RegExp(
          `${name}  \\((project|user): [^)]*\\)\\n    ${description}\\n(.*\\n)?    status: available`,
        ),
      );
    expect(listed).toContain(
      'tools: read, search (allowed-tools: pre-approved in a turn you activate it in)',
    );
    expect(listed).toMatch(
      /one {2}\(user: .*\.agents\/skills\/one\/SKILL\.md\)\n {4}User copy of one\n {4}status: not loaded: a skill of the same name comes first/,
    );
    expect(listed).toContain('skills/broken/SKILL.md:3: a "quoted" value is not closed');
    expect(listed).toContain('skills/toolong/SKILL.md:2: description is 1025 characters (at most 1024)');
    expect(listed).toContain('skills/Upper/SKILL.md:1: name "Upper" must be 1-64 lowercase letters');
    expect(listed).toMatch(
      /folder {2}\(project: \S*skills\/folder\/SKILL\.md\)\n {4}status: error: \S*skills\/folder\/SKILL\.md:2: name "other" differs from its folder "folder"/,
    );
    expect(listed).toContain('skills/compat/SKILL.md:4: compatibility is 501 characters (at most 500)');
    // Listed with its error, never activatable (under either name); the run goes on.
    for (const name of ['folder', 'other']) {
      const refused = await fx.run(['-p', `/use ${name}`]);
      expect(refused.stderr + refused.stdout).toMatch(/is not loaded|no skill named/);
      expect(refused.stdout).not.toContain('is active');
    }

    // Untrusted: project skills are listed, not loaded; user skills still are.
    const untrusted = await run(['-p', '/skills'], { trusted: false });
    expect(untrusted.stdout).toMatch(
      /one {2}\(project: skills\/one\/SKILL\.md\)\n.*\n.*\n {4}status: not loaded: the folder is not trusted/,
    );
    expect(untrusted.stdout).toMatch(/six {2}\(user: .*\n.*\n.*\n {4}status: available/);
    expect(untrusted.stderr).toContain('project skill');
  });

  it('/use limits the visible and callable tools; a hidden tool is refused; /unuse lifts it', async () => {
    await fx.project.write(
      'skills/reader/SKILL.md',
      described('Only reads', ['read', 'ls'], 'Read, never write.'),
    );
    fx.fake.push({ text: 'hello' });
    await run(['-p', 'hi']);
    expect(toolNames(fx.fake.requests[0]!)).toContain('write');
    expect(systemPrompt(fx.fake.requests[0]!)).toContain('- reader: Only reads');

    expect((await run(['-p', '/use reader', '-c'])).stdout).toContain(
      'skill reader is active (tools: read, ls)',
    );
    fx.fake.push(
      // Hidden by the skill: a model naming it anyway.
      { undeclared: true, toolCalls: [{ name: 'write', arguments: '{"path":"x.txt","content":"no"}' }] },
      { text: 'ok' },
    );
    const turn = parseJsonOutput(await run(['-p', 'write x', '-c', '--output-format', 'json']));
    expect(toolNames(fx.fake.requests[1]!)).toEqual(['ls', 'read', 'use_skill']);
    expect(systemPrompt(fx.fake.requests[1]!)).toContain('Read, never write.');
    expect(turn.tool_calls[0]!.result).toContain('tool write is not available in this conversation now');

    // `/<name>` is `/use <name>` when no command has the name.
    expect((await run(['-p', '/reader', '-c'])).stdout).toContain('skill reader is active');
    await run(['-p', '/unuse', '-c']);
    fx.fake.push({ text: 'free' });
    await run(['-p', 'again', '-c']);
    expect(toolNames(fx.fake.requests[3]!)).toContain('write');
    expect(systemPrompt(fx.fake.requests[3]!)).not.toContain('Read, never write.');
  });

  it('a skill written for Claude Code (`allowed-tools: Read Grep`) limits to read and search, not to nothing', async () => {
    await fx.project.write(
      '.claude/skills/finder/SKILL.md',
      spec('finder', 'Finds things', 'Read Grep', 'Look, never touch.'),
    );
    expect((await run(['-p', '/use finder'])).stdout).toContain(
      'skill finder is active (tools: read, search)',
    );
    fx.fake.push({ text: 'looked' });
    await run(['-p', 'find it', '-c']);
    expect(toolNames(fx.fake.requests[0]!)).toEqual(['read', 'search', 'use_skill']);
  });

  it('the model activates a skill with use_skill; it stays active through --continue and compaction', async () => {
    await fx.project.write(
      '.agents/skills/pdf/SKILL.md',
      spec('pdf', 'Work with PDF files', 'read', 'Use pdftotext on PDFs.'),
    );
    fx.fake.push({ toolCalls: [{ name: 'use_skill', arguments: '{"name":"pdf"}' }] }, { text: 'loaded' });
    const first = parseJsonOutput(await run(['-p', 'summarise a.pdf', '--output-format', 'json']));
    const enumOf = (fx.fake.requests[0]!.body.tools ?? []).find(
      (tool) => (tool.function as { name: string }).name === 'use_skill',
    )!.function as { parameters: { properties: { name: { enum: string[] } } } };
    expect(enumOf.parameters.properties.name.enum).toEqual(['pdf']);
    expect(first.tool_calls[0]).toMatchObject({ name: 'use_skill', decision: 'allow' });
    expect(first.tool_calls[0]!.result).toContain('Use pdftotext on PDFs.');
    expect(first.tool_calls[0]!.result).toContain(path.join('.agents', 'skills', 'pdf'));
    // The whitelist applies from the next request of the same turn.
    expect(toolNames(fx.fake.requests[1]!)).toEqual(['read', 'use_skill']);

    fx.fake.push({ text: 'Summary: a PDF was discussed.' });
    expect((await run(['-p', '/compact', '-c'])).stdout).toMatch(/context compacted/);
    fx.fake.push({ text: 'still here' });
    await run(['-p', 'next', '-c']);
    const after = fx.fake.requests[3]!;
    expect(String(after.body.messages[1]?.content)).toContain('[Summary of previous conversation]');
    expect(systemPrompt(after)).toContain('Active skill "pdf"');
    expect(systemPrompt(after)).toContain('Use pdftotext on PDFs.');
    expect(toolNames(after)).toEqual(['read', 'use_skill']);
  });

  it('active skills are session state: in the session file, back with --resume, not in another session; an old side file is read once', async () => {
    await fx.project.write('skills/reader/SKILL.md', described('Only reads', ['read', 'ls'], 'Read only.'));
    const sessionId = async (args: string[]) => {
      fx.fake.push({ text: 'ok' });
      return (
        parseJsonOutput(await run(['-p', 'hi', '--output-format', 'json', ...args])) as {
          session_id?: string;
        }
      ).session_id!;
    };
    const sessionFile = (id: string) => path.join(userSessionsDir(fx.project), `${id}.jsonl`);
    const stateLines = async (id: string) =>
      (await readFile(sessionFile(id), 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { type: string; key?: string; value?: unknown })
        .filter((line) => line.type === 'state' && line.key === 'skills');

    const first = await sessionId(['--skill', 'reader']);
    expect(toolNames(fx.fake.requests[0]!)).toEqual(['ls', 'read', 'use_skill']);
    expect((await stateLines(first)).map((line) => line.value)).toEqual([['reader']]);
    expect(existsSync(path.join(fx.project.dir, '.geekagent', 'skills-active.json'))).toBe(false);

    const second = await sessionId([]);
    expect(toolNames(fx.fake.requests[1]!)).toContain('write');
    await sessionId(['--resume', first]);
    expect(toolNames(fx.fake.requests[2]!)).toEqual(['ls', 'read', 'use_skill']);
    expect(systemPrompt(fx.fake.requests[2]!)).toContain('Read only.');

    // A session saved by an earlier version: its skills come from the side file, into the session.
    await fx.project.write('.geekagent/skills-active.json', JSON.stringify({ [second]: ['reader'] }));
    await sessionId(['--resume', second]);
    expect(toolNames(fx.fake.requests[3]!)).toEqual(['ls', 'read', 'use_skill']);
    expect((await stateLines(second)).map((line) => line.value)).toEqual([['reader']]);
    await fx.project.write('.geekagent/skills-active.json', '{}');
    await sessionId(['--resume', second]);
    expect(toolNames(fx.fake.requests[4]!)).toEqual(['ls', 'read', 'use_skill']);
  });

  it('a failed first turn takes its message back, not the skills activated before it', async () => {
    await fx.project.write('skills/reader/SKILL.md', described('Only reads', ['read', 'ls'], 'Read only.'));
    expect((await run(['-p', '/use reader'])).stdout).toContain('skill reader is active');
    fx.fake.push({ kind: 'http_error', status: 400, message: 'bad request' });
    const failed = await fx.run(['-p', 'hi', '-c']);
    expect(failed.code).not.toBe(0);
    fx.fake.push({ text: 'ok' });
    await run(['-p', 'again', '-c']);
    expect(fx.fake.requests[1]!.body.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(toolNames(fx.fake.requests[1]!)).toEqual(['ls', 'read', 'use_skill']);
  });

  it('--skill in print mode; a whitelist by MCP pattern shows only that server’s tools', async () => {
    await fx.project.mcpServers({ demo: { command: 'node', args: [DEMO_SERVER] } });
    await fx.project.write(
      'skills/dice/SKILL.md',
      spec('dice', 'Roll dice', 'mcp_demo_*', 'Roll with the demo server.'),
    );
    fx.fake.push({ text: 'rolled' });
    await run(['-p', 'roll', '--skill', 'dice']);
    expect(toolNames(fx.fake.requests[0]!)).toEqual(['mcp_demo_dice', 'mcp_demo_word_count', 'use_skill']);
    expect(systemPrompt(fx.fake.requests[0]!)).toContain('Roll with the demo server.');

    const missing = await fx.run(['-p', 'roll', '--skill', 'nope']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('--skill: no loadable skill named nope');
  });

  it('a catalog over its budget (2% of the context window) is shortened and /skills says which', async () => {
    for (const name of ['alpha', 'beta', 'gamma'])
      await fx.project.write(
        `skills/${name}/SKILL.md`,
        described(`${name} ${'detail '.repeat(40)}`, [], 'b'),
      );
    const env = { GEEKAGENT_CONTEXT_WINDOW: '2000' };
    const listed = (await run(['-p', '/skills'], { env })).stdout;
    expect(
      listed.match(/catalog: description shortened to fit the catalog budget \(160 chars/g),
    ).toHaveLength(3);
    fx.fake.push({ text: 'ok' });
    await run(['-p', 'hi'], { env });
    const catalog = systemPrompt(fx.fake.requests[0]!).split('Skills (when a task')[1]!;
    expect(catalog).toMatch(/\n- alpha: alpha deta…\n- beta: beta detai…\n- gamma: gamma deta…$/);
  });

  it('allowed-tools pre-approves for the turn the person activates the skill in; a deny rule still wins; tools: does not pre-approve', async () => {
    await fx.project.write(
      'skills/sh/SKILL.md',
      spec('sh', 'Shell work', 'run_shell read', 'Use the shell.'),
    );
    await fx.project.write(
      'skills/limited/SKILL.md',
      described('Limited shell', ['run_shell'], 'Shell only.'),
    );
    const call = { toolCalls: [{ name: 'run_shell', arguments: '{"command":"echo skill-ok"}' }] };
    const turn = async (args: string[]) => {
      fx.fake.push(call, { text: 'done' });
      return parseJsonOutput(await run(['-p', 'go', '--output-format', 'json', ...args], UNCONFINED))
        .tool_calls[0]!;
    };
    const approved = await turn(['--skill', 'sh']);
    expect(approved).toMatchObject({ decision: 'allow', is_error: false });
    expect(approved.result).toContain('skill-ok');
    expect((await turn(['--skill', 'sh', '--deny', 'run_shell'])).decision).toBe('deny');
    expect((await turn(['--skill', 'sh', '--deny', 'run_*'])).decision).toBe('deny');
    await fx.project.tools({ run_shell: 'deny' });
    expect((await turn(['--skill', 'sh'])).decision).toBe('deny');
    await fx.project.tools({});
    expect((await turn(['--skill', 'limited'])).decision).toBe('refused');
    expect((await turn([])).decision).toBe('refused');

    // The next turn of the same session: still active (the whitelist holds), no longer pre-approved.
    expect((await turn(['--skill', 'sh'])).decision).toBe('allow');
    const later = await turn(['--continue']);
    expect(toolNames(fx.fake.requests.at(-2)!)).toEqual(['read', 'run_shell', 'use_skill']);
    expect(later.decision).toBe('refused');

    // Loaded by the model: nothing is pre-approved (only the person grants; skills-grants.test.ts).
    fx.fake.push({ toolCalls: [{ name: 'use_skill', arguments: '{"name":"sh"}' }] }, call, { text: 'done' });
    const loaded = parseJsonOutput(await run(['-p', 'go', '--output-format', 'json'], UNCONFINED)).tool_calls;
    expect(loaded.map((c) => [c.name, c.decision])).toEqual([
      ['use_skill', 'allow'],
      ['run_shell', 'refused'],
    ]);
  });

  it('a skill tool (the shipped example) is asked before it runs, in the skill folder, only while active', async () => {
    await cp(
      path.join(REPO_ROOT, 'examples', 'skills', 'word-stats'),
      path.join(fx.project.dir, '.agents', 'skills', 'word-stats'),
      {
        recursive: true,
      },
    );
    await fx.project.write('notes.txt', 'one two three\nfour\n');
    const call = { toolCalls: [{ name: 'skill_word-stats_count', arguments: '{"args":["notes.txt"]}' }] };
    fx.fake.push({ text: 'no skill' });
    await run(['-p', 'hi']);
    expect(toolNames(fx.fake.requests[0]!)).not.toContain('skill_word-stats_count');
    fx.fake.push(call, { text: 'refused' });
    const asked = parseJsonOutput(
      await run(['-p', 'count', '--skill', 'word-stats', '--output-format', 'json']),
    );
    expect(toolNames(fx.fake.requests[1]!)).toEqual(['glob', 'read', 'skill_word-stats_count', 'use_skill']);
    expect(asked.tool_calls[0]!.decision).toBe('refused');
    fx.fake.push(call, { text: 'counted' });
    const approved = parseJsonOutput(
      await run([
        '-p',
        'count',
        '--skill',
        'word-stats',
        '--allow',
        'skill_word-stats_count',
        '--output-format',
        'json',
      ]),
    );
    expect(approved.tool_calls[0]).toMatchObject({ decision: 'allow', is_error: false });
    expect(approved.tool_calls[0]!.result).toBe('notes.txt: 2 lines, 4 words, 19 chars');
    const listed = (await run(['-p', '/skills'])).stdout;
    expect(listed).toContain('skill tools: skill_word-stats_count (asked before each run)');
  });
});
