/**
 * Files read by descriptor, as promises: node:fs's callbacks, promisified. The start reads its
 * config and state files this way, not through the promise API's FileHandle, whose module loads
 * readline, file watchers and directory streams with it (~2.5 ms before a `-p` turn's first model
 * request; scripts/bundle-plugins/light-fs-promises.mjs keeps it unloaded until a call needs it).
 */
import { close, fstat, open, read, readFile } from 'node:fs';
import { promisify } from 'node:util';

export const openFd = promisify(open);
export const statFd = promisify(fstat);
/** The rest of the file from the descriptor's position (all of it when just opened). */
export const readWholeFd = promisify(readFile) as (fd: number) => Promise<Buffer>;
export const closeFd = promisify(close);

/** Reads into `buffer` at `position`: the bytes read (0 at the end of the file). */
export function readFdAt(
  fd: number,
  buffer: Buffer,
  offset: number,
  length: number,
  position: number,
): Promise<number> {
  return new Promise((resolve, reject) =>
    read(fd, buffer, offset, length, position, (error, bytesRead) =>
      error ? reject(error) : resolve(bytesRead),
    ),
  );
}
