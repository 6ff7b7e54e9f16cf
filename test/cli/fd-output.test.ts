import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fdOutput, isTerminal } from '../../src/cli/fd-output.js';
import { tempDir } from '../helpers/temp.js';

/** A named pipe in a temp dir, opened at both ends without blocking: a reader that never reads. */
async function fifo(): Promise<{ reader: number; writer: number }> {
  const path = join(await tempDir(), 'fifo');
  execFileSync('mkfifo', [path]);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  return { reader, writer };
}

function drain(fd: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(65536);
  for (;;) {
    let read = 0;
    try {
      read = readSync(fd, buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
      throw error;
    }
    if (read === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, read)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function captured(stream: PassThrough): string {
  return (stream.read() as Buffer | null)?.toString('utf8') ?? '';
}

describe.skipIf(process.platform === 'win32')('fdOutput', () => {
  it('writes to the descriptor, and once a non-blocking one is full, the rest in order through the stream', async () => {
    const { reader, writer } = await fifo();
    const fallback = new PassThrough();
    let made = 0;
    const output = fdOutput(writer, () => {
      made += 1;
      return fallback;
    });
    output.write('first line\n');
    expect(drain(reader)).toBe('first line\n');
    expect(made).toBe(0);

    // Far more than a pipe holds (64 KiB on Linux), with no one reading: the write meets EAGAIN.
    const big = `${'é'.repeat(100_000)}\n`;
    output.write(big);
    output.write('after\n');
    const inPipe = drain(reader);
    expect(inPipe.length).toBeGreaterThan(0);
    expect(made).toBe(1);
    expect(Buffer.concat([Buffer.from(inPipe), Buffer.from(captured(fallback))]).toString('utf8')).toBe(`${big}after\n`);
    closeSync(reader);
    closeSync(writer);
  });

  it('goes through the stream for good once asked to (a server, which must not wait on its reader)', async () => {
    const { reader, writer } = await fifo();
    const stream = new PassThrough();
    const output = fdOutput(writer, () => stream);
    output.write('direct\n');
    output.useStream();
    output.write('streamed\n');
    expect(drain(reader)).toBe('direct\n');
    expect(captured(stream)).toBe('streamed\n');
    closeSync(reader);
    closeSync(writer);
  });

  it('drops what a reader that went away cannot get, without throwing', async () => {
    const { reader, writer } = await fifo();
    closeSync(reader);
    const fallback = new PassThrough();
    const output = fdOutput(writer, () => fallback);
    expect(() => output.write('nobody reads this\n')).not.toThrow();
    expect(() => output.write('nor this\n')).not.toThrow();
    expect(captured(fallback)).toBe('');
    closeSync(writer);
  });
});

describe.skipIf(process.platform === 'win32')('isTerminal', () => {
  it('is false for a file, a pipe, /dev/null and a closed descriptor', async () => {
    const file = join(await tempDir(), 'file');
    writeFileSync(file, '');
    const fd = openSync(file, 'r');
    const { reader, writer } = await fifo();
    const devNull = openSync('/dev/null', 'w');
    expect(await Promise.all([isTerminal(fd), isTerminal(reader), isTerminal(writer), isTerminal(devNull)])).toEqual([false, false, false, false]);
    for (const open of [fd, reader, writer, devNull]) closeSync(open);
    expect(await isTerminal(devNull)).toBe(false);
  });
});
