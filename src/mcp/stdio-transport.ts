/**
 * Our stdio Transport for the SDK `Client`, replacing StdioClientTransport, which signals only its
 * direct child (an `npx`/`sh -c` grandchild survives), notices an exit only on 'close' (a grandchild
 * holding stdout hides a crash until the request times out), re-copies its read buffer on every
 * chunk (quadratic on multi-MB messages) and drops the connection on any message over 10 MiB.
 * Message (de)serialisation stays the SDK's.
 */

import { isAscii } from 'node:buffer';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  deserializeMessage,
  type JSONRPCMessage,
  type RequestId,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { killGroup, type ProcessGroupTracker } from '../process/group-tracker.js';
import { LineFramer, type SkippedLine } from './line-framer.js';
import { quickNotification } from './notification-flow.js';

export interface StdioLaunch {
  command: string;
  args: string[];
  /** The complete environment of the server: the caller merged the defaults and declared env. */
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
  /** The process is gone (or never started): what was set up for it can go. */
  onExited?: () => void;
}

const CR = 0x0d;
const MAX_STDERR_LINE = 8192;
/** After the exit (and the group kill), how long the last buffered output may take to arrive. */
const EXIT_DRAIN_MS = 200;
const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","id":7,"result"…` — how most non-JS servers order a response. */
const HEAD_ID = new RegExp(
  String.raw`^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*${ID}\s*,\s*"(?:result|error)"`,
);
/** `…,"jsonrpc":"2.0","id":7}` — how the TypeScript SDK orders one (id last). */
const TAIL_ID = new RegExp(String.raw`,\s*"id"\s*:\s*${ID}\s*\}\s*$`);

export function describeProcessExit(exit: ProcessExit): string {
  return exit.signal ? `server was killed by ${exit.signal}` : `server exited with code ${exit.code}`;
}

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
  /** Output after the exit is no longer ours to deliver. */
  private stopped = false;
  private readonly framer: LineFramer;
  private stderrParts: string[] = [];
  private stderrLength = 0;
  private stderrCut = false;
  private readonly maxMessageBytes: number;
  /** stdin holds this tick's messages until the next (see batchWrites). */
  private corked = false;
  /** Settles when a full stdin has drained (or closed); shared by every send waiting on it. */
  private drained: Promise<void> | undefined;

  constructor(private readonly options: StdioTransportOptions) {
    this.maxMessageBytes = options.maxMessageBytes ?? 256 * 1024 * 1024;
    this.framer = new LineFramer(
      { line: (bytes) => this.deliver(bytes), oversized: (skipped) => this.discardOversized(skipped) },
      { maxLineBytes: this.maxMessageBytes },
    );
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Always null (stderr lines go to `onStderrLine`); present because the SDK recognises a stdio
   * transport by `pid` and `stderr`, and treats a silent `server/discover` there as a 2025 server.
   */
  get stderr(): null {
    return null;
  }

  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  start(): Promise<void> {
    if (this.child || this.closePromise)
      return Promise.reject(new Error('GroupStdioTransport was already started'));
    const { launch, tracker } = this.options;
    return new Promise((resolve, reject) => {
      // detached: the server leads its own process group (pgid = pid), so the whole family can be
      // signalled at once; env is exactly what we were given, never process.env.
      const child = spawn(launch.command, launch.args, {
        env: launch.env,
        cwd: launch.cwd,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
      });
      this.child = child;
      const pid = child.pid;
      // Registered before 'spawn' so an agent dying in between still leaves nothing behind.
      if (pid !== undefined) tracker.add(pid);
      let spawned = false;
      child.once('spawn', () => {
        spawned = true;
        resolve();
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        if (spawned) return this.onerror?.(error);
        reject(describeSpawnError(error, launch));
        this.options.onExited?.();
        this.notifyClose();
      });
      if (pid !== undefined) {
        this.exited = new Promise((done) => {
          // 'exit', not 'close': 'close' waits for every holder of the pipes, grandchildren included.
          child.once(
            'exit',
            (code, signal) => void this.handleExit(child, pid, { code, signal }).finally(done),
          );
        });
      }
      // EPIPE after an exit: the exit itself is what we report.
      child.stdin.on('error', () => undefined);
      child.stdout.on('data', (chunk: Buffer) => {
        if (!this.stopped) this.framer.push(chunk);
      });
      child.stdout.on('error', () => undefined);
      // Always drained, listener or not: a full stderr pipe would block the server.
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => this.onStderr(chunk));
      child.stderr.on('error', () => undefined);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.exitInfo || !stdin.writable) return Promise.reject(new Error('server is not running'));
    this.batchWrites(stdin);
    if (stdin.write(serializeMessage(message))) return Promise.resolve();
    return this.whenDrained(stdin);
  }

  /**
   * A full pipe (a wide round's messages, corked into one write, pass its 16 KiB mark) is waited
   * out once for every send behind it: one listener pair, not two per message (which also set off
   * Node's leak warning, with a stack trace, at the eleventh call in flight).
   */
  private whenDrained(stdin: Writable): Promise<void> {
    this.drained ??= new Promise<void>((resolve, reject) => {
      const settle = () => {
        stdin.off('drain', settle);
        stdin.off('close', settle);
        this.drained = undefined;
        if (this.exitInfo || stdin.destroyed) reject(new Error('server is not running'));
        else resolve();
      };
      stdin.on('drain', settle);
      stdin.on('close', settle);
    });
    return this.drained;
  }

  /**
   * Messages sent in one tick (the next calls of a wide round, started as the last ones answered)
   * leave in one write: one wake-up of the server for all of them instead of one each (bench row 4).
   */
  private batchWrites(stdin: Writable): void {
    if (this.corked) return;
    this.corked = true;
    stdin.cork();
    process.nextTick(() => {
      this.corked = false;
      stdin.uncork();
    });
  }

  /** End stdin → grace → SIGTERM the group → grace → SIGKILL the group. Idempotent. */
  close(): Promise<void> {
    this.closePromise ??= this.shutDown();
    return this.closePromise;
  }

  private async shutDown(): Promise<void> {
    this.closing = true;
    const child = this.child;
    const pid = child?.pid;
    if (!child || pid === undefined || !this.exited) return this.notifyClose();
    const grace = this.options.closeGraceMs ?? 1000;
    if (!this.exitInfo) {
      child.stdin.end();
      if (!(await this.exitWithin(grace))) {
        killGroup(pid, 'SIGTERM');
        if (!(await this.exitWithin(grace))) killGroup(pid, 'SIGKILL');
      }
    }
    await this.exited;
  }

  private exitWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
    return Promise.race([this.exited!.then(() => true), late]).finally(() => clearTimeout(timer));
  }

  private async handleExit(
    child: ChildProcessWithoutNullStreams,
    pid: number,
    exit: ProcessExit,
  ): Promise<void> {
    this.exitInfo = exit;
    // Grandchildren may still hold our pipes (which would hide the exit): take the group down.
    killGroup(pid, 'SIGKILL');
    this.options.tracker.remove(pid);
    this.options.onExited?.();
    // What the server wrote just before exiting may still be in the pipes (its last response, its
    // dying words on stderr): they end as soon as the group is gone, or we stop waiting.
    await Promise.race([
      Promise.all([ended(child.stdout), ended(child.stderr)]),
      new Promise((resolve) => setTimeout(resolve, EXIT_DRAIN_MS)),
    ]);
    this.stopped = true;
    child.stdout.destroy();
    child.stderr.destroy();
    child.stdin.destroy();
    if (this.stderrParts.length > 0) this.flushStderr();
    this.framer.reset();
    if (!this.closing) this.onerror?.(new Error(describeProcessExit(exit)));
    this.notifyClose();
  }

  private notifyClose(): void {
    if (this.closeNotified) return;
    this.closeNotified = true;
    this.onclose?.();
  }

  /**
   * The line is dropped and the connection lives on. If it was a response, the waiting request
   * would only fail at its timeout: answer it at once with an error for the same id instead.
   */
  private discardOversized(skipped: SkippedLine): void {
    const reason = `discarded a ${skipped.bytes}-byte message from the server: larger than the ${this.maxMessageBytes}-byte limit`;
    this.onerror?.(new Error(reason));
    const id = oversizedResponseId(skipped.head.toString('utf8'), skipped.tail.toString('utf8'));
    if (id !== undefined) this.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32603, message: reason } });
  }

  /** `raw` is only valid during the call (the framer reuses its buffer): decoded at once. */
  private deliver(raw: Buffer): void {
    const end = raw.length > 0 && raw[raw.length - 1] === CR ? raw.length - 1 : raw.length;
    if (end === 0) return;
    const body = raw.subarray(0, end);
    // Same string for ASCII, and several times faster than validating UTF-8 (10 MiB: ~1 vs ~6 ms).
    const line = isAscii(body) ? body.toString('latin1') : body.toString('utf8');
    let message: JSONRPCMessage;
    try {
      // Progress and log notifications skip the SDK's schema check here: a flood of them must cost
      // little per message (the ones passed on are checked by their handlers).
      message = quickNotification(line) ?? deserializeMessage(line);
    } catch {
      // Servers that print banners or logs on stdout: report, skip, carry on.
      this.onerror?.(new Error(`ignored a line that is not JSON-RPC: ${line.slice(0, 120)}`));
      return;
    }
    this.onmessage?.(message);
  }

  private onStderr(chunk: string): void {
    const pieces = chunk.split('\n');
    const partial = pieces.pop()!;
    for (const piece of pieces) {
      this.addStderr(piece);
      this.flushStderr();
    }
    if (partial !== '') this.addStderr(partial);
  }

  /** Keeps at most MAX_STDERR_LINE characters of a line; the rest of it is skipped. */
  private addStderr(piece: string): void {
    if (this.stderrCut) return;
    const room = MAX_STDERR_LINE - this.stderrLength;
    if (piece.length > room) this.stderrCut = true;
    const kept = this.stderrCut ? piece.slice(0, room) : piece;
    this.stderrParts.push(kept);
    this.stderrLength += kept.length;
  }

  private flushStderr(): void {
    let line = this.stderrParts.join('');
    if (this.stderrCut) line += '… [line cut]';
    else if (line.endsWith('\r')) line = line.slice(0, -1);
    this.stderrParts = [];
    this.stderrLength = 0;
    this.stderrCut = false;
    this.options.onStderrLine?.(line);
  }
}

function oversizedResponseId(head: string, tail: string): RequestId | undefined {
  const match = HEAD_ID.exec(head) ?? (head.includes('"method"') ? null : TAIL_ID.exec(tail));
  if (!match?.[1]) return undefined;
  try {
    const id: unknown = JSON.parse(match[1]);
    return typeof id === 'number' || typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

function ended(stream: Readable): Promise<unknown> {
  return finished(stream, { writable: false }).catch(() => undefined);
}

function describeSpawnError(error: NodeJS.ErrnoException, launch: StdioLaunch): Error {
  // spawn reports a missing cwd as ENOENT too, which would blame the command.
  if (error.code === 'ENOENT' && launch.cwd !== undefined && !existsSync(launch.cwd)) {
    return new Error(`working directory not found: ${launch.cwd}`);
  }
  if (error.code === 'ENOENT') {
    const where = launch.command.includes('/')
      ? 'no such file'
      : `not on the PATH the server gets: ${launch.env.PATH ?? '(PATH is not set)'}`;
    return new Error(`command not found: ${launch.command} (${where}; install it or use an absolute path)`);
  }
  if (error.code === 'EACCES') return new Error(`permission denied running ${launch.command}`);
  return new Error(`cannot start ${launch.command}: ${error.message}`);
}
