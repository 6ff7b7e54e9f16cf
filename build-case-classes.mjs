// Writes src/core/case-classes.ts: the code points that Unicode's simple case folding makes one
// (CaseFolding.txt, statuses C and S), as the Node that runs this knows them. Run by hand, with
// `node build-case-classes.mjs`, when the table is to follow a newer Unicode: the table is frozen
// in the source so that every Node, the service's and PostgreSQL all search with the same one.
//
// JavaScript's own case-insensitive matching with the `u` flag is that folding (ECMAScript's
// Canonicalize), so each class is read from it: the code points that /x/iu matches, for each x
// that changes when case folded (every class has one: all its members but one fold to another).
import { writeFileSync } from 'node:fs';

const codePoints = [];
for (let cp = 0; cp <= 0x10ffff; cp += 1) if (cp < 0xd800 || cp > 0xdfff) codePoints.push(cp);
const everything = codePoints.map((cp) => String.fromCodePoint(cp)).join('');
const folds = /\p{Changes_When_Casefolded}/u;

const classOf = new Map();
for (const cp of codePoints) {
  if (classOf.has(cp) || !folds.test(String.fromCodePoint(cp))) continue;
  const members = [...everything.matchAll(new RegExp(`\\u{${cp.toString(16)}}`, 'giu'))].map((match) =>
    match[0].codePointAt(0),
  );
  if (members.length < 2) continue;
  // One plane per class: folding keeps a string's length in UTF-16 units (name-search.ts relies on it).
  if (new Set(members.map((member) => member > 0xffff)).size > 1) throw new Error(`a class across planes: ${members}`);
  for (const member of members) {
    if (classOf.has(member)) throw new Error(`U+${member.toString(16)} in two classes`);
    classOf.set(member, members);
  }
}
const classes = [...new Set(classOf.values())].sort((a, b) => a[0] - b[0]);
const entries = classes.map((members) => members.map((member) => member.toString(16)).join('.'));
const lines = [];
for (let line = ''; entries.length > 0;) {
  const next = `${line === '' ? '' : ' '}${entries[0]}`;
  if (line.length + next.length > 112) {
    lines.push(line);
    line = '';
    continue;
  }
  line += next;
  entries.shift();
  if (entries.length === 0) lines.push(line);
}

const versions = `Node ${process.versions.node} (Unicode ${process.versions.unicode})`;
writeFileSync(
  'src/core/case-classes.ts',
  `// Written by build-case-classes.mjs on ${versions}: do not edit.

/**
 * The classes of Unicode ${process.versions.unicode}'s simple case folding (CaseFolding.txt, statuses C and S): each
 * entry the code points folding makes one, in hex, separated by dots; the entries separated by
 * spaces. ${classes.length} classes; every other code point is a class of its own.
 */
export const CASE_CLASSES = [
${lines.map((line) => `  '${line}',`).join('\n')}
].join(' ');
`,
);
process.stdout.write(`${classes.length} classes, Unicode ${process.versions.unicode}\n`);
