import type { Expectation, Patch } from '../core/store.js';

/** A write's precondition as HTTP says it: If-None-Match: * (absent), If-Match: * (present), or If-Match with ETags. */
export function preconditionHeaders(expect: Expectation | undefined): Record<string, string> | undefined {
  if (expect === undefined) return undefined;
  if (expect === 'absent') return { 'if-none-match': '*' };
  return { 'if-match': expect === 'present' ? '*' : expect.etags.join(', ') };
}

/** A patch as a JSON Merge Patch (RFC 7396): the fields it changes, `"tag": null` for no tag. */
export function patchBody(patch: Patch): string {
  return JSON.stringify({
    ...(patch.name === undefined ? {} : { name: patch.name }),
    ...(patch.tag === undefined ? {} : { tag: patch.tag }),
  });
}
