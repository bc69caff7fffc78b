/**
 * The start-up trust question, asked on the plain terminal before the full-screen UI exists and
 * before anything of the folder runs: one key — `y` trusts (and records), `n` or Esc starts
 * without the folder's declarations, Ctrl+C / Ctrl+D leave.
 */

export type TrustAnswer = 'trust' | 'not-now' | 'quit';

const PROMPT =
  'Trust this folder?  y = yes, use them from now on   n = not now, start without them   Ctrl+C = quit';

export function askTrust(
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream },
  lines: readonly string[],
): Promise<TrustAnswer> {
  io.stdout.write(`\n${lines.join('\n')}\n\n${PROMPT} `);
  const { stdin } = io;
  const wasRaw = stdin.isRaw === true;
  stdin.setRawMode?.(true);
  stdin.resume();
  return new Promise((resolve) => {
    const onData = (chunk: Buffer | string) => {
      const key = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      const answer = answerFor(key);
      if (!answer) return;
      stdin.off('data', onData);
      stdin.setRawMode?.(wasRaw);
      stdin.pause();
      io.stdout.write(`${answer === 'trust' ? 'y' : answer === 'not-now' ? 'n' : ''}\n`);
      resolve(answer);
    };
    stdin.on('data', onData);
  });
}

function answerFor(key: string): TrustAnswer | undefined {
  const first = key[0];
  if (first === 'y' || first === 'Y') return 'trust';
  if (first === 'n' || first === 'N' || key === '\u001b') return 'not-now';
  if (first === '\u0003' || first === '\u0004') return 'quit';
  return undefined;
}
