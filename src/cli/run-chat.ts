/**
 * The print face's run (`-p`, or stdin/stdout not a terminal; chosen in chat-face.ts): owns the
 * process-level wiring for one run — shutdown on signals, and the exit code.
 */
import path from 'node:path';
import { type App, createApp } from '../app/create-app.js';
import { nonInteractiveFeatures } from '../app/create-mcp.js';
import { describeStartupError } from '../app/errors.js';
import { decideFolderTrust } from '../boot/folder-trust.js';
import { preloadProvider } from '../providers/registry.js';
import { ControlChannel } from '../stream-json/control.js';
import { StreamJsonElicitor } from '../stream-json/elicitation.js';
import { StreamJsonApprover } from '../stream-json/input.js';
import { JsonLines } from '../stream-json/output.js';
import { runStreamJson } from '../stream-json/run.js';
import { visibleLine } from '../util/terminal-text.js';
import { flagOptions } from './flag-options.js';
import { PrintModeApprover, runPrint } from './print-mode.js';
import { withProcessScope } from './process-scope.js';
import type { ChatOptions, CliIO } from './types.js';

export async function runChat(options: ChatOptions, io: CliIO): Promise<number> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  // Print mode asks the model (unless the prompt is a command): load its client alongside start-up.
  const asksModel = !(typeof options.print === 'string' && options.print.trim().startsWith('/'));
  // The named provider's SDK now; one that only `.env` or models.json names loads once the app
  // knows it (prepare below).
  if (asksModel) preloadProvider(options.provider ?? io.env.GEEKAGENT_PROVIDER);
  const streamInput = options.inputFormat === 'stream-json';
  if (streamInput && options.outputFormat !== 'stream-json') {
    io.stderr.write('--input-format stream-json needs --output-format stream-json\n');
    return 1;
  }
  // Stream input: stdin carries the turns (and approval answers), read as they come.
  const prompt =
    typeof options.print === 'string' ? options.print : streamInput ? '' : await readAll(io.stdin);
  if (prompt.trim() === '' && !streamInput) {
    io.stderr.write('no prompt: pass -p "<prompt>" or pipe one on stdin\n');
    return 1;
  }

  return withProcessScope(io.stderr, async ({ tracker, onShutdown }) => {
    const turn = new AbortController();
    let app: App | undefined;
    // stream-json: stdout carries JSON lines only, from before the app exists (its approver writes them).
    const lines = options.outputFormat === 'stream-json' ? new JsonLines(io.stdout) : undefined;
    // Stream input: a program answers in-band (control requests): tools' questions and servers' forms.
    const control = lines && streamInput ? new ControlChannel(lines) : undefined;
    const approver = control ? new StreamJsonApprover(control) : new PrintModeApprover();
    const note = (line: string) => io.stderr.write(`geekagent: ${visibleLine(line)}\n`);
    onShutdown(async () => {
      turn.abort();
      await app?.shutdown();
    });
    try {
      // Nobody to ask: an untrusted folder's declarations are left out, and stderr says so.
      const trust = await decideFolderTrust({
        projectDir: cwd,
        env: io.env,
        flag: options.trust === true,
        notice: (text) => io.stderr.write(`${text}\n`),
      });
      app = await createApp({
        ...flagOptions(cwd, options, io),
        trust,
        approver,
        tracker,
        features: ({ root }) => {
          const acceptDefaults = options.acceptElicitationDefaults === true;
          const features = nonInteractiveFeatures(root, acceptDefaults, note);
          // Sampling stays refused: stream-json has no question for it. The flag still answers forms itself.
          return control && !acceptDefaults
            ? { ...features, elicitation: new StreamJsonElicitor(control, note) }
            : features;
        },
      });
      for (const notice of app.notices) io.stderr.write(`geekagent: ${visibleLine(notice)}\n`);
      if (asksModel) app.provider.prepare?.();
      if (lines) {
        const input = control ? { stream: io.stdin, control } : undefined;
        const partial = options.includePartialMessages === true;
        return await runStreamJson(app, { lines, prompt, partial, ...(input ? { input } : {}) }, turn.signal);
      }
      return await runPrint(app, prompt, options.outputFormat === 'json' ? 'json' : 'text', io, turn.signal);
    } catch (error) {
      io.stderr.write(`${describeStartupError(error)}\n`);
      return 1;
    } finally {
      await app?.shutdown();
    }
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
