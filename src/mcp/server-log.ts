/**
 * One server's stderr (and the agent's notes about it): a bounded ring of recent lines in memory
 * for `/mcp logs`, plus `<project>/.geekagent/logs/<server>.log`, rotated to `.log.1`. A server
 * flooding stderr must never grow our memory or stall the agent: when the file stream is backed up,
 * lines are dropped, counted, and the count written once it drains. Secret values are redacted
 * from each line (before it is cut) on the way in, so neither the file nor `/mcp logs` shows them.
 */
import { constants, createWriteStream, type WriteStream } from 'node:fs';
import { type FileHandle, open, rename } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { errorMessage } from '../util/errors.js';
import type { Redactor } from '../util/redact.js';
import { UnsafePathError } from '../util/safe-write.js';
import { ensureRealFolder, ignoreInGit, NOFOLLOW, NONBLOCK } from '../util/state-dir.js';

const MAX_LINE_CHARS = 4000;
/** Lines kept while the file is being opened or rotated (async work): beyond this they drop. */
const MAX_QUEUED_BYTES = 1024 * 1024;

export interface ServerLogOptions {
  maxLines?: number;
  maxFileBytes?: number;
  redact?: Redactor;
}

type FileState = 'unopened' | 'opening' | 'open' | 'rotating' | 'failed' | 'closed';

export class ServerLog {
  private readonly ring: string[] = [];
  /** Index of the oldest line once the ring is full. */
  private ringStart = 0;
  private readonly maxLines: number;
  private readonly maxFileBytes: number;
  private readonly redact: Redactor | undefined;
  private state: FileState;
  private stream: WriteStream | undefined;
  private fileBytes = 0;
  private backedUp = false;
  private queue: string[] = [];
  private queuedBytes = 0;
  private dropped = 0;
  private unreported = 0;
  /** The open or rotation in progress, for close() to wait on. */
  private work: Promise<void> = Promise.resolve();
  private closing: Promise<void> | undefined;

  constructor(
    readonly server: string,
    private readonly file: string | undefined,
    options: ServerLogOptions = {},
  ) {
    this.maxLines = Math.max(1, options.maxLines ?? 200);
    this.maxFileBytes = options.maxFileBytes ?? 5 * 1024 * 1024;
    this.redact = options.redact;
    this.state = file === undefined ? 'closed' : 'unopened';
  }

  /** Lines that never reached the file (memory always has the latest). */
  get droppedLines(): number {
    return this.dropped;
  }

  append(text: string): void {
    try {
      for (const raw of text.includes('\n') ? text.split('\n') : [text]) {
        const line = cut(raw.endsWith('\r') ? raw.slice(0, -1) : raw, this.redact);
        this.remember(line);
        this.toFile(`${new Date().toISOString()} ${line}\n`);
      }
    } catch {
      // logging must never take the agent down
    }
  }

  /** Resolves once no open or rotation is under way (so a failed open has left its note). */
  async settled(): Promise<void> {
    while (this.state === 'opening' || this.state === 'rotating') await this.work;
  }

  /** The last `count` lines, newest last. */
  tail(count = this.maxLines): string[] {
    const ordered = [...this.ring.slice(this.ringStart), ...this.ring.slice(0, this.ringStart)];
    return count >= ordered.length ? ordered : ordered.slice(ordered.length - Math.max(0, count));
  }

  close(): Promise<void> {
    this.closing ??= this.finish();
    return this.closing;
  }

  private remember(line: string): void {
    if (this.ring.length < this.maxLines) {
      this.ring.push(line);
      return;
    }
    this.ring[this.ringStart] = line;
    this.ringStart = (this.ringStart + 1) % this.maxLines;
  }

  private toFile(entry: string): void {
    switch (this.state) {
      case 'unopened':
        this.state = 'opening';
        this.enqueue(entry);
        this.work = this.open();
        return;
      case 'opening':
      case 'rotating':
        if (this.queuedBytes + entry.length <= MAX_QUEUED_BYTES) this.enqueue(entry);
        else this.drop();
        return;
      case 'open':
        if (this.backedUp) {
          this.drop();
          return;
        }
        if (this.fileBytes > 0 && this.fileBytes + Buffer.byteLength(entry) > this.maxFileBytes) {
          this.state = 'rotating';
          this.enqueue(entry);
          this.work = this.rotate();
          return;
        }
        this.write(entry);
        return;
      default:
        return; // failed or closed: memory only
    }
  }

  private write(entry: string): void {
    const stream = this.stream!;
    this.fileBytes += Buffer.byteLength(entry);
    if (stream.write(entry)) return;
    this.backedUp = true;
    stream.once('drain', () => {
      this.backedUp = false;
      this.reportDrops();
    });
  }

  private enqueue(entry: string): void {
    this.queue.push(entry);
    this.queuedBytes += entry.length;
  }

  private drop(): void {
    this.dropped++;
    this.unreported++;
  }

  private reportDrops(): void {
    if (this.unreported === 0 || !this.stream) return;
    const note = `${new Date().toISOString()} [${this.unreported} lines dropped]\n`;
    this.unreported = 0;
    this.fileBytes += note.length;
    this.stream.write(note);
  }

  private async open(): Promise<void> {
    const file = this.file!;
    try {
      let handle = await openLogFile(file);
      this.fileBytes = (await handle.stat()).size;
      if (this.fileBytes >= this.maxFileBytes) {
        await handle.close();
        await this.shiftOld(file);
        handle = await openLogFile(file);
      }
      this.attach(handle);
    } catch (error) {
      // Kept in memory, where `/mcp logs` shows why the file is off.
      this.remember(`[log file off: ${errorMessage(error)}]`);
      this.fail();
    }
  }

  private async rotate(): Promise<void> {
    const file = this.file!;
    const old = this.stream;
    this.stream = undefined;
    if (old) await endStream(old);
    await this.shiftOld(file);
    // A write error while the old stream flushed has turned the file off for good.
    if (this.state !== 'rotating') return;
    try {
      const handle = await openLogFile(file);
      if (this.state === 'rotating') this.attach(handle);
      else await handle.close();
    } catch (error) {
      this.remember(`[log file off: ${errorMessage(error)}]`);
      this.fail();
    }
  }

  private async shiftOld(file: string): Promise<void> {
    // Another agent on the same project may have rotated it first: appending is fine then.
    await rename(file, `${file}.1`).catch(() => undefined);
    this.fileBytes = 0;
  }

  private attach(handle: FileHandle): void {
    const stream = createWriteStream('', { fd: handle, flags: 'a' });
    stream.on('error', () => this.fail());
    this.stream = stream;
    this.state = 'open';
    this.backedUp = false;
    const queued = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    this.reportDrops();
    // A long queue may itself fill the stream or the file: route each entry as if new.
    for (const entry of queued) this.toFile(entry);
  }

  private fail(): void {
    this.state = 'failed';
    this.queue = [];
    this.queuedBytes = 0;
    this.stream?.destroy();
    this.stream = undefined;
  }

  private async finish(): Promise<void> {
    // Each open/rotation may start another while it flushes its queue: wait until none runs.
    await this.settled();
    const stream = this.stream;
    this.stream = undefined;
    if (this.state !== 'failed') this.state = 'closed';
    if (!stream) return;
    if (this.unreported > 0) {
      stream.write(`${new Date().toISOString()} [${this.unreported} lines dropped]\n`);
      this.unreported = 0;
    }
    await endStream(stream);
  }
}

/** Ends a stream and waits until it is flushed (or failed: a log never reports errors). */
function endStream(stream: WriteStream): Promise<void> {
  stream.end();
  return finished(stream).catch(() => undefined);
}

/**
 * Opens `<project>/.geekagent/logs/<server>.log` for appending: the logs folder and the state
 * folder holding it must be real folders, and the file a regular file with one link, opened
 * without following a link or blocking — a planted link or FIFO cannot redirect or stall logs.
 */
async function openLogFile(file: string): Promise<FileHandle> {
  const logs = path.dirname(file);
  await ensureRealFolder(path.dirname(logs));
  await ensureRealFolder(logs);
  // Generated state: a session leaves no untracked files in the repository.
  await ignoreInGit(logs);
  let handle: FileHandle;
  try {
    handle = await open(
      file,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW | NONBLOCK,
      0o600,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new UnsafePathError(`refusing to use ${file}: it is a symbolic link`);
    throw error;
  }
  const info = await handle.stat();
  if (!info.isFile() || info.nlink > 1) {
    await handle.close();
    throw new UnsafePathError(
      `refusing to use ${file}: ${info.isFile() ? 'it has more than one hard link' : 'it is not a regular file'}`,
    );
  }
  return handle;
}

function cut(line: string, redact: Redactor | undefined): string {
  if (line.length <= MAX_LINE_CHARS) return redact ? redact(line) : line;
  const kept = redact ? redact.head(line, MAX_LINE_CHARS) : line.slice(0, MAX_LINE_CHARS);
  return `${kept}… [${line.length - MAX_LINE_CHARS} characters cut]`;
}
