import { createHash } from 'node:crypto';
import { encodePlant } from './plant-json.js';
import type { NewPlant } from './schemas.js';

/**
 * The ETag of a plant's state: a strong one (RFC 9110), from its canonical line, so that a plant
 * has the same ETag in every store and every process, and any change to its name or tag changes
 * it. 128 bits of the line's SHA-256, base64url. Loaded only where a write or an answer needs it:
 * node:crypto is a cost no other command pays.
 */
export function etagOf(plant: NewPlant): string {
  return `"${createHash('sha256').update(encodePlant(plant)).digest('base64url').slice(0, 22)}"`;
}
