import { hash, timingSafeEqual } from 'node:crypto';

/** One call, no Hash object: it runs on every request. */
function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}

// RFC 7235: the scheme is case-insensitive; RFC 6750: one or more spaces, then the token.
const BEARER = /^bearer +(\S+) *$/i;

/**
 * A check of an `Authorization` header against the configured tokens. Both sides are hashed first,
 * so every comparison is of 32 bytes and neither a token's length nor its content leaks through
 * timing; every token is compared on every request, so neither does which one matched.
 */
export function createTokenCheck(tokens: readonly string[]): (authorization: string | undefined) => boolean {
  if (tokens.length === 0)
    throw new TypeError('the plant server needs at least one token: it never runs without authentication');
  if (tokens.some((token) => !/^\S+$/.test(token)))
    throw new TypeError('a token must be non-empty and contain no whitespace');
  const expected = tokens.map(sha256);
  return (authorization) => {
    const presented = BEARER.exec(authorization ?? '')?.[1];
    if (presented === undefined) return false;
    const digest = sha256(presented);
    let matched = false;
    for (const candidate of expected) matched = timingSafeEqual(candidate, digest) || matched;
    return matched;
  };
}
