import { createReadStream, createWriteStream, type ReadStream, type WriteStream } from 'node:fs';
import type { FileSystem } from './file-system.js';

/**
 * Streams of bulk work's inputs and outputs whose every call (open, read, write, close) goes
 * through `fs`: node:fs's own streams, told to use it, so that a faulty fs fails them as it
 * fails the store's writes.
 */

/** Opens `path` without blocking the event loop: a FIFO opens only once its other end does. */
export function openFile(fs: FileSystem, path: string, flags: 'r' | 'w'): Promise<number> {
  return new Promise((opened, failed) =>
    fs.open(path, flags, 0o666, (error, fd) => (error === null ? opened(fd) : failed(error))),
  );
}

export function fileReadStream(fs: FileSystem, path: string, fd: number, highWaterMark: number): ReadStream {
  return createReadStream(path, { fd, highWaterMark, fs: { open: fs.open, read: fs.read, close: fs.close } });
}

export function fileWriteStream(fs: FileSystem, path: string, fd: number): WriteStream {
  return createWriteStream(path, { fd, fs: { open: fs.open, write: fs.write, close: fs.close } });
}
