// Sessions: what saving costs a turn, and how long resuming a long session takes. Uses the built
// code (dist/) on real files in a temp folder. A turn is what a tool-using turn appends: the user
// message, an assistant message with a tool call, the tool's result, a usage report, the answer.
import { closeSync, constants, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { Conversation } from '../dist/agent/conversation.js';
import { sessionsDir } from '../dist/sessions/files.js';
import { Sessions } from '../dist/sessions/manager.js';
import { median, now, rotate, tempDir } from './lib.mjs';

const USER = 'Please look at src/parser.ts and fix the off-by-one in the tokenizer loop. '.repeat(3);
const RESULT = 'export function tokenize(input: string): Token[] {\n  const tokens = [];\n'.repeat(30);
const ANSWER = 'I changed the loop bound from `<=` to `<` and added a test for the empty input. '.repeat(6);

function turn(conversation, n) {
  const { history } = conversation;
  history.append({ role: 'user', text: `${n}: ${USER}` });
  history.append({
    role: 'assistant',
    text: '',
    toolCalls: [{ id: `call_${n}`, name: 'read', arguments: '{"path":"src/parser.ts"}' }],
  });
  history.append({ role: 'tool', callId: `call_${n}`, name: 'read', output: RESULT });
  conversation.recordUsage({ prompt_tokens: 1000 + n, completion_tokens: 40, total_tokens: 1040 + n }, 4000);
  history.append({ role: 'assistant', text: ANSWER });
}

/** The user state folder of a bench project: beside it, like a temp GEEKAGENT_HOME. */
const userDirOf = (projectDir) => path.join(projectDir, 'home-state');

async function open(projectDir, start) {
  const conversation = new Conversation();
  const { sessions } = await Sessions.create({
    projectDir,
    userDir: userDirOf(projectDir),
    conversation,
    start,
    notice: () => undefined,
  });
  return { conversation, sessions };
}

/** ms per turn of `turns` turns, with the session recording (or a bare conversation). */
async function saveCost(turns, record) {
  const dir = await tempDir('sessions-save');
  const { conversation, sessions } = record
    ? await open(dir, { kind: 'new' })
    : { conversation: new Conversation(), sessions: undefined };
  const t0 = now();
  for (let n = 0; n < turns; n++) turn(conversation, n);
  const perTurn = (now() - t0) / turns;
  await sessions?.close();
  return perTurn;
}

/** The same lines written straight to a file with one write() each: the floor for saving. */
async function rawWriteCost(turns) {
  const dir = await tempDir('sessions-raw');
  const file = path.join(dir, 'raw.jsonl');
  const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
  const lines = [];
  const conversation = new Conversation();
  conversation.onChange((change) => lines.push(`${JSON.stringify({ t: Date.now(), ...change })}\n`));
  const t0 = now();
  for (let n = 0; n < turns; n++) {
    turn(conversation, n);
    for (const line of lines.splice(0)) writeSync(fd, line);
  }
  const perTurn = (now() - t0) / turns;
  closeSync(fd);
  return perTurn;
}

export async function benchSessions({ turns = 1000, reps = 5 } = {}) {
  // The long session to resume, written the way a run writes it.
  const projectDir = await tempDir('sessions-resume');
  const first = await open(projectDir, { kind: 'new' });
  for (let n = 0; n < turns; n++) turn(first.conversation, n);
  const id = first.sessions.currentId;
  await first.sessions.close();
  const file = path.join(sessionsDir(userDirOf(projectDir), projectDir), `${id}.jsonl`);
  const bytes = readFileSync(file).length;

  const resume = await rotate(reps, {
    agent: async () => {
      const t0 = now();
      const { conversation, sessions } = await open(projectDir, { kind: 'resume', id });
      const ms = now() - t0;
      if (conversation.messages.length !== turns * 4) throw new Error('resume lost messages');
      await sessions.close();
      return ms;
    },
    // Reading the file and parsing every line: the least any resume must do.
    parse: async () => {
      const t0 = now();
      const text = readFileSync(file, 'utf8');
      let count = 0;
      for (const line of text.split('\n')) if (line !== '' && JSON.parse(line)) count++;
      if (count === 0) throw new Error('empty session file');
      return now() - t0;
    },
  });

  const save = await rotate(reps, {
    recorded: () => saveCost(turns, true),
    bare: () => saveCost(turns, false),
    raw: () => rawWriteCost(turns),
  });
  return {
    turns,
    bytes,
    resume: { agent: median(resume.agent), parse: median(resume.parse), samples: resume },
    save: {
      added: Math.max(0, median(save.recorded) - median(save.bare)),
      raw: median(save.raw),
      recorded: median(save.recorded),
      bare: median(save.bare),
      samples: save,
    },
  };
}
