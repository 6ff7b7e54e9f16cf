import type { IncomingMessage } from 'node:http';
import type { Expectation } from '../core/store.js';
import { rejection } from './failures.js';

/** An entity tag as HTTP writes it: strong `"…"`, or weak `W/"…"` (RFC 9110 §8.8.3). */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/** The entity tags of a list (`"a", W/"b"`), each checked; `*` alone is the whole field. */
function entityTags(field: string, name: string): string[] {
  const tags = field
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (tags.length === 0 || !tags.every((tag) => ENTITY_TAG.test(tag)))
    throw rejection(
      400,
      'bad_request',
      `${name} must be * or a list of entity tags ("…"), as GET answers them in ETag`,
    );
  return tags;
}

/**
 * The precondition a write's request states (RFC 9110 §13): `If-Match: *` (a plant is there),
 * `If-Match` with entity tags (the plant is in the state one of them names; compared strongly, so a
 * weak tag never matches), `If-None-Match: *` (no plant is there: create only). If-None-Match with
 * entity tags, and both fields together, are refused: plants writes nothing a client cannot state
 * plainly.
 */
export function preconditionOf(req: IncomingMessage): Expectation | undefined {
  const ifMatch = req.headers['if-match'];
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifMatch !== undefined && ifNoneMatch !== undefined)
    throw rejection(400, 'bad_request', 'give If-Match or If-None-Match, not both');
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() !== '*')
      throw rejection(
        400,
        'bad_request',
        'If-None-Match takes only * here (create only): to write only over a state, give If-Match',
      );
    return 'absent';
  }
  if (ifMatch === undefined) return undefined;
  if (ifMatch.trim() === '*') return 'present';
  return { etags: entityTags(ifMatch, 'If-Match').filter((tag) => !tag.startsWith('W/')) };
}
