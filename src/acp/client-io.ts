/**
 * The editor's side of the file and command tools, when the client offers it: `fs/read_text_file`
 * and `fs/write_text_file` (its buffers, unsaved changes included) behind the tools' FileAccess
 * seam, and `terminal/*` (the person watches the command in the editor) behind the CommandRunner
 * seam. The tools check the root, protected paths and undo before either is called.
 */
import type { AgentContext, ClientCapabilities } from '@agentclientprotocol/sdk/unstable';
import type { CommandOutcome, CommandRequest, CommandRunner, FileAccess } from '../tools/types.js';

/** Kept of a command's output (the client cuts from the start): run_shell shows less anyway. */
const TERMINAL_OUTPUT_BYTES = 64 * 1024;

export function clientFileAccess(
  caps: ClientCapabilities | undefined,
  client: AgentContext,
  sessionId: () => string,
): FileAccess | undefined {
  // Both or neither: a read from the disk and a write to the buffer would disagree.
  if (caps?.fs?.readTextFile !== true || caps.fs.writeTextFile !== true) return undefined;
  return {
    async readText(path, signal) {
      const answer = await client.request(
        'fs/read_text_file',
        { sessionId: sessionId(), path },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
      return answer.content;
    },
    async writeText(path, content, signal) {
      await client.request(
        'fs/write_text_file',
        { sessionId: sessionId(), path, content },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
    },
  };
}

export function clientCommandRunner(
  caps: ClientCapabilities | undefined,
  client: AgentContext,
  sessionId: () => string,
  /** The call's tool_call gets the terminal as its content, so the editor shows it live. */
  showTerminal: (callId: string, terminalId: string) => void,
): CommandRunner | undefined {
  if (caps?.terminal !== true) return undefined;
  return {
    async run(request: CommandRequest): Promise<CommandOutcome> {
      const terminal = await client.createTerminal(
        {
          sessionId: sessionId(),
          command: '/bin/sh',
          args: ['-c', request.line],
          cwd: request.cwd,
          outputByteLimit: TERMINAL_OUTPUT_BYTES,
        },
        { cancellationSignal: request.signal, stopWaitingOnCancel: true },
      );
      if (request.callId) showTerminal(request.callId, terminal.id);
      let stopped: CommandOutcome['stopped'] = null;
      let timer: NodeJS.Timeout | undefined;
      const stop = (reason: 'timeout' | 'abort') => {
        if (stopped) return;
        stopped = reason;
        terminal.kill().catch(() => undefined);
      };
      const onAbort = () => stop('abort');
      try {
        request.signal.addEventListener('abort', onAbort, { once: true });
        timer = setTimeout(() => stop('timeout'), request.timeoutMs);
        // wait_for_exit's answer is the exit status; terminal/output's `exitStatus` is optional.
        const ended = terminal.waitForExit().then(
          (exit) => ({ exit }),
          () => ({ exit: undefined }),
        );
        // A cancel does not wait for the client to confirm the kill.
        const aborted = new Promise<'aborted'>((resolve) => {
          if (request.signal.aborted) resolve('aborted');
          request.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
        });
        const first = await Promise.race([ended, aborted]);
        if (first === 'aborted') return { output: '', code: null, signal: null, stopped: 'abort' };
        const last = await terminal.currentOutput();
        const status = first.exit ?? last.exitStatus;
        return {
          output: last.truncated ? `(output cut at its start)\n${last.output}` : last.output,
          code: status?.exitCode ?? last.exitStatus?.exitCode ?? null,
          signal: status?.signal ?? last.exitStatus?.signal ?? null,
          stopped,
        };
      } finally {
        clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
        terminal.release().catch(() => undefined);
      }
    },
  };
}
