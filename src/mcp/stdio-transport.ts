/**
 * Our stdio Transport for the SDK `Client`. The SDK's StdioClientTransport signals only its direct
 * child (an `npx`/`sh -c` grandchild survives), notices an exit only on 'close' (a grandchild
 * holding stdout hides a crash until the request times out), re-copies its read buffer for every
 * chunk (quadratic on multi-MB messages) and drops the connection on messages over 10 MiB. This
 * one runs the server in its own process group, detects exit from the process itself, frames
 * lines in linear time and survives garbage and oversized lines. Message (de)serialisation stays
 * the SDK's.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killGroup, type ProcessGroupTracker } from '../process/group-tracker.js';

export interface StdioLaunch {
  command: string;
  args: string[];
  /** The complete environment of the server (the caller merged defaults and declared env). */
  env: Record<string, string>;
  cwd?: string;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StdioTransportOptions {
  launch: StdioLaunch;
  tracker: ProcessGroupTracker;
  onStderrLine?: (line: string) => void;
  maxMessageBytes?: number;
  closeGraceMs?: number;
}

const NEWLINE = 0x0a;
const MAX_STDERR_LINE = 8192;
/** After the server exits, how long its last buffered output may take to arrive. */
const EXIT_DRAIN_MS = 100;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcessWithoutNullStreams | undefined;
  private exitInfo: ProcessExit | undefined;
  private exited: Promise<void> | undefined;
  private closing = false;
  private closeNotified = false;
  private closePromise: Promise<void> | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Skipping the rest of a line that was too long. */
  private discarding = false;
  private stderrPartial = '';
  private readonly maxMessageBytes: number;

  constructor(private readonly options: StdioTransportOptions) {
    this.maxMessageBytes = options.maxMessageBytes ?? 256 * 1024 * 1024;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('GroupStdioTransport already started');
    const { command, args, env, cwd } = this.options.launch;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { env, cwd, detached: true, stdio: 'pipe', shell: false, windowsHide: true });
      this.child = child;
      let spawned = false;
      this.exited = new Promise((exited) => {
        child.once('exit', (code, signal) => {
          this.handleExit(child, { code, signal }).finally(exited);
        });
      });
      child.once('spawn', () => {
        spawned = true;
        this.options.tracker.add(child.pid!);
        resolve();
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        if (spawned) {
          this.onerror?.(error);
          return;
        }
        reject(describeSpawnError(error, this.options.launch));
        this.notifyClose();
      });
      child.stdin.on('error', () => undefined); // EPIPE after an exit: the exit handler reports it
      child.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
      child.stdout.on('error', () => undefined);
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => this.onStderr(chunk));
      child.stderr.on('error', () => undefined);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.exitInfo || !stdin.writable) {
        reject(new Error('server is not running'));
        return;
      }
      if (stdin.write(serializeMessage(message))) {
        resolve();
        return;
      }
      const done = () => {
        stdin.off('drain', done);
        stdin.off('close', done);
        if (this.exitInfo) reject(new Error('server is not running'));
        else resolve();
      };
      stdin.on('drain', done);
      stdin.on('close', done);
    });
  }

  /** stdin end → grace → SIGTERM the group → grace → SIGKILL the group. Idempotent. */
  close(): Promise<void> {
    this.closePromise ??= this.shutDown();
    return this.closePromise;
  }

  private async shutDown(): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (!child?.pid || !this.exited) {
      this.notifyClose();
      return;
    }
    const grace = this.options.closeGraceMs ?? 1000;
    if (!this.exitInfo) {
      child.stdin.end();
      if (!(await this.waitForExit(grace))) {
        killGroup(child.pid, 'SIGTERM');
        if (!(await this.waitForExit(grace))) killGroup(child.pid, 'SIGKILL');
      }
    }
    await this.exited;
  }

  private waitForExit(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.exited!.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private async handleExit(child: ChildProcessWithoutNullStreams, exit: ProcessExit): Promise<void> {
    this.exitInfo = exit;
    // Grandchildren may still hold our pipes (and would hide the exit): take the group down.
    killGroup(child.pid!, 'SIGKILL');
    this.options.tracker.remove(child.pid!);
    // Output the server wrote just before exiting may still be in the pipe: let it arrive.
    await new Promise<void>((resolve) => {
      if (child.stdout.readableEnded) return resolve();
      const timer = setTimeout(resolve, EXIT_DRAIN_MS);
      child.stdout.once('end', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    child.stdout.destroy();
    child.stderr.destroy();
    if (this.stderrPartial !== '') this.options.onStderrLine?.(this.stderrPartial);
    this.stderrPartial = '';
    this.pending = [];
    this.pendingBytes = 0;
    if (!this.closing) this.onerror?.(new Error(describeProcessExit(exit)));
    this.notifyClose();
  }

  private notifyClose(): void {
    if (this.closeNotified) return;
    this.closeNotified = true;
    this.onclose?.();
  }

  /** Linear-time framing: only each new chunk is scanned for newlines; one concat per message. */
  private onStdout(chunk: Buffer): void {
    if (this.exitInfo && this.closeNotified) return;
    let start = 0;
    let index = chunk.indexOf(NEWLINE);
    while (index !== -1) {
      const piece = chunk.subarray(start, index);
      if (this.discarding) {
        this.discarding = false;
      } else if (this.pending.length > 0) {
        this.pending.push(piece);
        const line = Buffer.concat(this.pending, this.pendingBytes + piece.length);
        this.pending = [];
        this.pendingBytes = 0;
        this.deliver(line);
      } else {
        this.deliver(piece);
      }
      start = index + 1;
      index = chunk.indexOf(NEWLINE, start);
    }
    if (start >= chunk.length || this.discarding) return;
    const rest = chunk.subarray(start);
    if (this.pendingBytes + rest.length > this.maxMessageBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.discarding = true;
      this.onerror?.(new Error(`dropped a message from the server larger than ${this.maxMessageBytes} bytes`));
      return;
    }
    this.pending.push(rest);
    this.pendingBytes += rest.length;
  }

  private deliver(raw: Buffer): void {
    const end = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.length - 1 : raw.length;
    if (end === 0) return;
    const line = raw.toString('utf8', 0, end);
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      // Servers that print banners or logs on stdout: report, skip, carry on.
      this.onerror?.(new Error(`ignored a line that is not JSON-RPC: ${line.slice(0, 120)}`));
      return;
    }
    this.onmessage?.(message);
  }

  private onStderr(chunk: string): void {
    const text = this.stderrPartial + chunk;
    const lines = text.split('\n');
    this.stderrPartial = lines.pop() ?? '';
    if (this.stderrPartial.length > MAX_STDERR_LINE) {
      lines.push(this.stderrPartial);
      this.stderrPartial = '';
    }
    for (const line of lines) this.options.onStderrLine?.(line.replace(/\r$/, ''));
  }
}

export function describeProcessExit(exit: ProcessExit): string {
  return exit.signal ? `server was killed by ${exit.signal}` : `server exited with code ${exit.code}`;
}

function describeSpawnError(error: NodeJS.ErrnoException, launch: StdioLaunch): Error {
  if (error.code === 'ENOENT' && launch.cwd && !existsSync(launch.cwd)) {
    return new Error(`working directory does not exist: ${launch.cwd}`);
  }
  if (error.code === 'ENOENT') {
    return new Error(`command not found: ${launch.command} (is it installed and on the PATH the server gets: ${launch.env.PATH ?? '(no PATH)'}?)`);
  }
  if (error.code === 'EACCES') return new Error(`permission denied running ${launch.command}`);
  return new Error(`cannot start ${launch.command}: ${error.message}`);
}
