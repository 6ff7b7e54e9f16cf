import type { IncomingMessage } from 'node:http';
import { parseJson } from '../core/json.js';
import { readPlantJson } from '../core/plant-json.js';
import { printable } from '../core/printable.js';
import type { NewPlant } from '../core/schemas.js';
import { rejection } from './failures.js';

/** A Content-Type's media type, without parameters (`; charset=utf-8`), in lower case. */
export function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

/** How reading a body ended: all of it, or over the limit (the rest was left unread). */
export type BodyRead = { complete: true; bytes: Buffer } | { complete: false };

/**
 * Reads the request body, keeping at most `maxBytes` of it. Over the limit it stops at once (a
 * declared Content-Length over the limit is refused before a byte is read) and the caller must close
 * the connection, since the rest of the body is still on its way. With `keep: false` the bytes are
 * discarded as they come: used to skip the body of a request refused on its headers alone.
 */
export function readRequestBody(req: IncomingMessage, maxBytes: number, keep = true): Promise<BodyRead> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) return Promise.resolve({ complete: false });
  if (req.readableEnded) return Promise.resolve({ complete: true, bytes: Buffer.alloc(0) });
  return new Promise((resolve, rejectRead) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyRead | Error) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (result instanceof Error) rejectRead(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        finish({ complete: false });
      } else if (keep) chunks.push(chunk);
    };
    const onEnd = () => finish({ complete: true, bytes: Buffer.concat(chunks) });
    // The client went away mid-body (node reports it as an 'aborted' error, then a close): nobody
    // is left to answer, and it is no failure of the server's.
    const onError = (error: Error) => finish(req.complete ? error : new ClientGone());
    const onClose = () => finish(new ClientGone());
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** The client closed the connection before its request was whole. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection before the request was complete');
    this.name = 'ClientGone';
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function textOfBody(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw rejection(400, 'malformed_json', 'the request body is not valid UTF-8');
  }
}

/** The body's JSON, numbers kept exact (core/json.ts): 400 malformed_json for bad UTF-8 or bad JSON. */
export function jsonOfBody(bytes: Buffer): unknown {
  const text = textOfBody(bytes);
  try {
    return parseJson(text);
  } catch (error) {
    // A RangeError here is a stack overflow: nesting deep enough to exhaust the parser's recursion.
    throw rejection(
      400,
      'malformed_json',
      'the request body is not valid JSON: ' +
        `${error instanceof RangeError ? 'nested too deeply' : printable((error as Error).message)}`,
    );
  }
}

/**
 * The body's NewPlant (core/plant-json.ts): 400 malformed_json for bad UTF-8 or bad JSON, the
 * `invalid_plant` error for JSON that is not a NewPlant.
 */
export function newPlantOfBody(bytes: Buffer): NewPlant {
  const reading = readPlantJson(textOfBody(bytes));
  if (reading.notJson !== undefined)
    throw rejection(400, 'malformed_json', `the request body is not valid JSON: ${printable(reading.notJson)}`);
  if (reading.invalid !== undefined) throw reading.invalid;
  return reading.plant;
}
