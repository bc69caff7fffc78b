// Prompt-cache reuse over a scripted 20-turn session: the built CLI, one `-p` run per turn with
// `--continue` (the first run connects the MCP servers live, the later ones start from their cached
// listings), against a tiny in-bench Chat Completions model. The session recalls project memory
// notes on some turns, keeps todos, lets the model load a skill mid-session, discovers a deferred
// MCP tool with tool_search and calls tools. For each request the bench serialises what the provider
// caches, in the API's order (the tools, then the messages, the system prompt first), and measures
// the share of its bytes that is a byte-exact prefix of the previous request's. No compaction turn.
// A tool the search found is declared from then on at the end of the tool list; `ways` re-renders
// the same requests for the other ways to declare it (see `declareWays`), in each provider's order.
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { CLI, cliEnv, DEMO, MANY_TOOLS, spawnRun, tempDir } from './lib.mjs';

const call = (name, args) => ({ name, arguments: JSON.stringify(args) });

/**
 * The session: each turn's message and the model's replies to its requests in order (a function
 * gets the request body, for a reply that depends on what the agent sent).
 */
const TURNS = [
  {
    say: 'Give me an overview of this project',
    replies: [
      { toolCalls: [call('ls', { path: '.' })] },
      { text: 'A small project with a README and a source folder.' },
    ],
  },
  {
    say: 'Plan the work on the tokenizer',
    replies: [
      {
        toolCalls: [
          call('todo_write', {
            todos: [
              { content: 'read the tokenizer', status: 'in_progress' },
              { content: 'fix the loop bound', status: 'pending' },
              { content: 'add a test', status: 'pending' },
            ],
          }),
        ],
      },
      { text: 'Planned three steps.' },
    ],
  },
  { say: 'Which database do we use for staging?', replies: [{ text: 'The staging database is kestrel.' }] },
  {
    say: 'Read the tokenizer source',
    replies: [
      { toolCalls: [call('read', { path: 'src/tokenizer.ts' })] },
      { text: 'It loops one step too far.' },
    ],
  },
  {
    say: 'What does the README say about building?',
    replies: [{ toolCalls: [call('read', { path: 'README.md' })] }, { text: 'Run make.' }],
  },
  {
    say: 'Mark the first step done',
    replies: [
      {
        toolCalls: [
          call('todo_write', {
            todos: [
              { content: 'read the tokenizer', status: 'completed' },
              { content: 'fix the loop bound', status: 'in_progress' },
              { content: 'add a test', status: 'pending' },
            ],
          }),
        ],
      },
      { text: 'Done.' },
    ],
  },
  { say: 'How do deploys work on Thursdays?', replies: [{ text: 'Through the release train script.' }] },
  {
    say: 'Use the reviewing skill for this change',
    replies: [{ toolCalls: [call('use_skill', { name: 'reviewing' })] }, { text: 'Skill loaded.' }],
  },
  {
    say: 'Review the tokenizer change',
    replies: [
      { toolCalls: [call('read', { path: 'src/tokenizer.ts' })] },
      { text: 'Looks right after the fix.' },
    ],
  },
  {
    say: 'Find every TODO comment',
    replies: [{ toolCalls: [call('search', { pattern: 'TODO' })] }, { text: 'One TODO in the tokenizer.' }],
  },
  { say: 'Which package manager should I use here?', replies: [{ text: 'pnpm.' }] },
  {
    say: 'Find the open issues about the tokenizer on GitHub',
    replies: [
      { toolCalls: [call('tool_search', { query: 'search issues', limit: 2 })] },
      (body) => {
        const found = /^(mcp_\S+) \u2014 /m.exec(String(body.messages.at(-1)?.content ?? ''));
        return found
          ? { toolCalls: [call(found[1], { repository: 'octo/tokenizer', query: 'tokenizer' })] }
          : { text: 'tool_search found nothing' };
      },
      { text: 'Two open issues.' },
    ],
  },
  { say: 'Summarise those issues', replies: [{ text: 'Both are about the loop bound.' }] },
  {
    say: 'Mark the fix done',
    replies: [
      {
        toolCalls: [
          call('todo_write', {
            todos: [
              { content: 'read the tokenizer', status: 'completed' },
              { content: 'fix the loop bound', status: 'completed' },
              { content: 'add a test', status: 'in_progress' },
            ],
          }),
        ],
      },
      { text: 'Updated.' },
    ],
  },
  { say: 'Remind me what the staging database is called', replies: [{ text: 'kestrel.' }] },
  {
    say: 'List the source folder',
    replies: [{ toolCalls: [call('ls', { path: 'src' })] }, { text: 'One file.' }],
  },
  {
    say: 'Search the issues again for the empty input case',
    replies: [
      {
        toolCalls: [
          (body) => call(lastMcpTool(body), { repository: 'octo/tokenizer', query: 'empty input' }),
        ],
      },
      { text: 'None.' },
    ],
  },
  {
    say: 'Is there a changelog?',
    replies: [{ toolCalls: [call('glob', { pattern: '**/CHANGELOG*' })] }, { text: 'No changelog.' }],
  },
  {
    say: 'Close out the todo list',
    replies: [
      {
        toolCalls: [
          call('todo_write', {
            todos: [
              { content: 'read the tokenizer', status: 'completed' },
              { content: 'fix the loop bound', status: 'completed' },
              { content: 'add a test', status: 'completed' },
            ],
          }),
        ],
      },
      { text: 'All done.' },
    ],
  },
  { say: 'Thanks, that is all for now', replies: [{ text: 'You are welcome.' }] },
];

/** The MCP tool the model called last (turn 17 calls it again). */
function lastMcpTool(body) {
  for (const message of [...body.messages].reverse())
    for (const toolCall of message.tool_calls ?? [])
      if (toolCall.function.name.startsWith('mcp_')) return toolCall.function.name;
  return 'mcp_gh_search_issues';
}

function chunks(reply, body) {
  const out = [];
  if (reply.text) out.push({ choices: [{ index: 0, delta: { content: reply.text }, finish_reason: null }] });
  (reply.toolCalls ?? []).forEach((toolCall, index) => {
    const resolved = typeof toolCall === 'function' ? toolCall(body) : toolCall;
    out.push({
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index,
                id: `call_${Math.random().toString(36).slice(2, 10)}`,
                type: 'function',
                function: resolved,
              },
            ],
          },
          finish_reason: null,
        },
      ],
    });
  });
  out.push({ choices: [{ index: 0, delta: {}, finish_reason: reply.toolCalls ? 'tool_calls' : 'stop' }] });
  return out;
}

async function startModel() {
  const requests = [];
  let queue = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) return res.writeHead(404).end();
      const body = JSON.parse(raw);
      requests.push({ turn: model.turn, body });
      const step = queue.shift() ?? { text: 'ok' };
      const reply = typeof step === 'function' ? step(body) : step;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of chunks(reply, body)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const model = {
    turn: 0,
    url: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    script: (turn, replies) => {
      model.turn = turn;
      queue = [...replies];
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
  return model;
}

async function makeProject() {
  const base = await tempDir('cache');
  const dir = path.join(base, 'project');
  const home = path.join(base, 'home');
  const write = async (relative, text) => {
    const file = path.join(dir, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  };
  await mkdir(home, { recursive: true });
  await write('README.md', '# tokenizer\n\nBuild with `make`; test with `make test`.\n');
  await write(
    'src/tokenizer.ts',
    'export function tokenize(input: string) {\n  // TODO: empty input\n  for (let i = 0; i <= input.length; i++) {}\n}\n'.repeat(
      8,
    ),
  );
  await write(
    'AGENTS.md',
    '# Agents\n\nKeep functions short. Run `make test` before saying a change works.\n',
  );
  const now = new Date().toISOString();
  const note = (id, content) => ({ id, content, created: now, scope: 'project' });
  await write(
    '.geekagent/memory.json',
    JSON.stringify({
      version: 1,
      entries: [
        note('m00000001', 'The staging database is called kestrel'),
        note('m00000002', 'Deploys go through the release train script on Thursdays'),
        note('m00000003', 'This project uses pnpm as its package manager, never npm'),
      ],
    }),
  );
  await write(
    '.geekagent/skills/reviewing/SKILL.md',
    '---\nname: reviewing\ndescription: Review a change for correctness, tests and style\n---\nRead the diff, check the tests cover it, and list problems by severity.\n',
  );
  await write(
    '.geekagent/mcp.json',
    JSON.stringify({
      mcpServers: {
        gh: { command: process.execPath, args: [MANY_TOOLS], env: { TOOL_COUNT: '40' } },
        demo: { command: process.execPath, args: [DEMO] },
      },
    }),
  );
  return { dir, home };
}

async function runTurn(model, project, index) {
  const turn = TURNS[index];
  model.script(index + 1, turn.replies);
  const args = [
    CLI,
    '--trust',
    '--allow',
    'mcp_gh_search_issues',
    ...(index > 0 ? ['--continue'] : []),
    '-p',
    turn.say,
  ];
  const run = spawnRun(process.execPath, args, {
    cwd: project.dir,
    env: cliEnv(project, model.url, {
      GEEKAGENT_HOME: path.join(project.home, '.geekagent'),
      GEEKAGENT_TOOL_SEARCH: 'on',
    }),
  });
  const code = await run.exited;
  run.done();
  if (code !== 0)
    throw new Error(`turn ${index + 1} exited ${code}: ${run.output().trim().split('\n').at(-1)}`);
}

/** What the provider caches, in its order: the tools, then each message (system prompt first). */
export function cachedText(body) {
  return [JSON.stringify(body.tools ?? []), ...body.messages.map((message) => JSON.stringify(message))].join(
    '\n',
  );
}

function commonPrefix(a, b) {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Reuse per request (against the previous request) and per turn (its requests' bytes together). */
export function reuse(requests, render = cachedText) {
  const turns = new Map();
  let reused = 0;
  let total = 0;
  let worstRequest = { share: 1, turn: 0 };
  let previous;
  for (const request of requests) {
    const text = render(request.body);
    if (previous !== undefined) {
      const prefix = commonPrefix(previous, text);
      const entry = turns.get(request.turn) ?? { reused: 0, total: 0 };
      entry.reused += prefix;
      entry.total += text.length;
      turns.set(request.turn, entry);
      reused += prefix;
      total += text.length;
      if (prefix / text.length < worstRequest.share)
        worstRequest = { share: prefix / text.length, turn: request.turn };
    }
    previous = text;
  }
  const perTurn = [...turns].map(([turn, entry]) => ({ turn, share: entry.reused / entry.total }));
  const worst = perTurn.reduce((a, b) => (b.share < a.share ? b : a), { turn: 0, share: 1 });
  return { overall: reused / total, worst, worstRequest, perTurn, requests: requests.length };
}

/** A Chat Completions tool's name. */
const nameOf = (tool) => tool.function?.name ?? tool.name;

/**
 * The same request, its found tools declared another way: `append` as sent (after every other
 * tool); `sorted` the whole list by name (an agent that sorts its tools: a found one lands
 * mid-list); `native` Anthropic's `defer_loading` with `tool_reference` results (and the Responses
 * API's tool_search): the deferred definitions are sent but not rendered up front, a found one is
 * rendered where the search's result is, so the tool list stays as before the find; `undeclared`
 * what GeekAgent did before (the schema only in the search's result, the call to an undeclared
 * function).
 */
export function declareWays(body) {
  const tools = body.tools ?? [];
  const found = tools.filter((tool) => nameOf(tool).startsWith('mcp_'));
  const stable = tools.filter((tool) => !nameOf(tool).startsWith('mcp_'));
  const inline = body.messages.map((message) => {
    if (message.role !== 'tool') return message;
    const here = found.filter((tool) => String(message.content).includes(`${nameOf(tool)} \u2014 `));
    return here.length ? { ...message, content: `${message.content}\n${JSON.stringify(here)}` } : message;
  });
  return {
    append: body,
    sorted: { ...body, tools: [...tools].sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : 1)) },
    native: { ...body, tools: stable, messages: inline },
    undeclared: { ...body, tools: stable },
  };
}

/** What a provider caches, in its order: `tools` first (Anthropic) or after the system prompt (OpenAI, Gemini). */
export const ORDERS = {
  'tools first (Anthropic)': cachedText,
  'system first (OpenAI, Gemini)': (body) =>
    [
      JSON.stringify(body.messages[0] ?? null),
      JSON.stringify(body.tools ?? []),
      ...body.messages.slice(1).map((message) => JSON.stringify(message)),
    ].join('\n'),
};

/** Reuse of each way in each order, over the same requests; `find` is the request after the first find. */
export function ways(requests) {
  const findAt = requests.findIndex(
    (request, i) => i > 0 && declaredMcp(request) > declaredMcp(requests[i - 1]),
  );
  const out = {};
  for (const [order, render] of Object.entries(ORDERS)) {
    out[order] = {};
    for (const way of ['append', 'sorted', 'native', 'undeclared']) {
      const variant = requests.map((request) => ({ ...request, body: declareWays(request.body)[way] }));
      const measured = reuse(variant, render);
      const texts = findAt > 0 ? [render(variant[findAt - 1].body), render(variant[findAt].body)] : undefined;
      out[order][way] = {
        ...measured,
        find: texts ? commonPrefix(texts[0], texts[1]) / texts[1].length : Number.NaN,
      };
    }
  }
  return { findTurn: findAt > 0 ? requests[findAt].turn : 0, ways: out };
}

function declaredMcp(request) {
  return (request.body.tools ?? []).filter((tool) => nameOf(tool).startsWith('mcp_')).length;
}

export async function benchCache() {
  const model = await startModel();
  try {
    const project = await makeProject();
    for (let index = 0; index < TURNS.length; index++) await runTurn(model, project, index);
    // For a look at what was sent: BENCH_CACHE_DUMP=<file> writes every request body.
    if (process.env.BENCH_CACHE_DUMP)
      await writeFile(process.env.BENCH_CACHE_DUMP, JSON.stringify(model.requests, null, 1));
    return { turns: TURNS.length, ...reuse(model.requests), ...ways(model.requests) };
  } finally {
    await model.close();
  }
}
