import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalPage, canonicalPlant, encodePlant, plainLineId } from '../../src/core/plant-json.js';
import { parseJson } from '../../src/core/json.js';
import { parseNewPlant } from '../../src/core/validate.js';

/** What the schema makes of a line, through the lossless parser: the reference the fast path must match. */
function bySchema(line: string) {
  try {
    return parseNewPlant(parseJson(line));
  } catch {
    return undefined;
  }
}

const tricky = fc.constantFrom(
  '"',
  '\\',
  '/',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u2028',
  'é',
  '\ud83c\udf31',
  '\ud800',
  '\udc00',
  'a',
);
const texts = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.array(tricky, { maxLength: 6 }).map((parts) => parts.join('')),
  fc.constantFrom(
    '',
    'x'.repeat(1000),
    'x'.repeat(1001),
    '\u{1F331}'.repeat(1000),
    '\u{1F331}'.repeat(1001),
    '\ud800'.repeat(1001),
  ),
);
const ids = fc.oneof(
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
  fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 2n ** 63n, -(2n ** 63n) - 1n),
);

describe('the canonical plant line', () => {
  it('is read by the fast path exactly as by the schema, whenever the fast path reads it', () => {
    fc.assert(
      fc.property(ids, texts, fc.option(texts, { nil: undefined }), (id, name, tag) => {
        const line =
          `{"id":${id},"name":${JSON.stringify(name)}` + `${tag === undefined ? '' : `,"tag":${JSON.stringify(tag)}`}}`;
        const fast = canonicalPlant(line);
        const reference = bySchema(line);
        // The fast path may decline (the slow path then answers), but never accept what the schema refuses.
        if (fast !== undefined) expect(fast).toEqual(reference);
        // What it accepts, it writes back as it came: so the line must be the encoder's own.
        if (fast !== undefined) expect(line).toBe(encodePlant(fast));
        // And for the lines we write ourselves, it does not decline what the schema accepts.
        if (reference !== undefined && encodePlant(reference) === line) expect(fast).toEqual(reference);
      }),
      { numRuns: 3000 },
    );
  });

  it('is read on its bytes only where the fast path reads it, with the same id', () => {
    const plain = fc.string({
      unit: fc.constantFrom('a', ' ', '~', '\u007f', '"', '\\', '\u001f', 'é'),
      maxLength: 1002,
    });
    fc.assert(
      fc.property(
        ids,
        fc.oneof(texts, plain),
        fc.option(fc.oneof(texts, plain), { nil: undefined }),
        fc.constantFrom('', ' ', '}', ','),
        (id, name, tag, junk) => {
          const line =
            `{"id":${id},"name":${JSON.stringify(name)}` +
            `${tag === undefined ? '' : `,"tag":${JSON.stringify(tag)}`}}${junk}`;
          const bytes = Buffer.from(`x${line}y`);
          const fromBytes = plainLineId(bytes, 1, bytes.length - 1);
          const fast = canonicalPlant(line);
          // It may decline (the caller reads the line as a string), but never accept what the fast path refuses.
          if (fromBytes !== undefined) expect(BigInt(fromBytes)).toBe(fast?.id);
          // And it declines no plain line of ours: short ids, printable ASCII without escapes.
          const isPlain = (text: string | undefined) => text === undefined || /^[\u0020-\u007f]*$/.test(text);
          if (
            fast !== undefined &&
            line === encodePlant(fast) &&
            String(id).replace('-', '').length <= 15 &&
            isPlain(name) &&
            isPlain(tag) &&
            !/["\\]/.test(`${name}${tag ?? ''}`)
          )
            expect(fromBytes).toBe(Number(id));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it.each([
    '{"id":1,"name":"a","name":"b"}',
    '{"id":1,"name":"a","extra":true}',
    '{"id":1, "name":"a"}',
    '{"id":01,"name":"a"}',
    '{"id":1,"name":"\\u0041"}',
    '{"id":1,"name":"a"} ',
    '{"id":-0,"name":"a"}',
    '{"id":+1,"name":"a"}',
    '{"id":1,"name":"\ud800"}',
    '{"id":1,"name":"a\u0007"}',
    '{"id":1,"name":"a\tb"}',
    '{"id":1,"name":"a"',
    '{"id":1,"name":"a"}}',
    '{"id":,"name":"a"}',
    '{"id":-,"name":"a"}',
    '{"id":1e3,"name":"a"}',
    '{"id":1,"name":"a","tag":"b"',
    '{"id":1,"name":"a","tag":"b"} ',
    '{"id":1,"name":"a\ud800"}',
    '{"id":1,"name":"\udc00\ud800"}',
    '{"id":1,"name":"\ud800\ue000"}',
    '{"id":9223372036854775808,"name":"a"}',
  ])('declines %s, which is not in canonical form', (line) => {
    expect(canonicalPlant(line)).toBeUndefined();
    const bytes = Buffer.from(line);
    expect(plainLineId(bytes, 0, bytes.length)).toBeUndefined();
  });
  it.each([
    '{"id":0,"name":""}',
    '{"id":-1,"name":"a","tag":""}',
    '{"id":999999999999999,"name":"fifteen digits"}',
    '{"id":-9999999999999999,"name":"sixteen"}',
    '{"id":-9223372036854775808,"name":"min","tag":"int64"}',
    '{"id":7,"name":"\ud83c\udf31 fern","tag":"é"}',
    '{"id":7,"name":"~\u007f"}',
  ])('reads %s, in canonical form, exactly as the schema does', (line) => {
    expect(canonicalPlant(line)).toEqual(bySchema(line));
  });
});

describe('a page in canonical form', () => {
  /** What the schema makes of a page, through the lossless parser: every element a NewPlant, or undefined. */
  function pageBySchema(text: string) {
    try {
      const page = parseJson(text);
      return Array.isArray(page) ? page.map((entry) => parseNewPlant(entry)) : undefined;
    } catch {
      return undefined;
    }
  }
  const plantLine = fc
    .tuple(ids, texts, fc.option(texts, { nil: undefined }))
    .map(
      ([id, name, tag]) =>
        `{"id":${id},"name":${JSON.stringify(name)}${tag === undefined ? '' : `,"tag":${JSON.stringify(tag)}`}}`,
    );
  // Lines that look like a page's seams inside a string, and a page's pieces out of place.
  const seams = fc.constantFrom('},{"id":', '{"id":1,"name":"a"}', '"},{"id":2,"name":"', '\\', ',', ' ', '[', ']');

  it('is read exactly as by the schema, whenever it is read fast', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            plantLine,
            seams.map((seam) => `{"id":7,"name":${JSON.stringify(seam)}}`),
          ),
          { maxLength: 8 },
        ),
        fc.constantFrom(',', ', ', ',\n'),
        fc.option(seams, { nil: undefined }),
        (lines, separator, junk) => {
          const text = `[${lines.join(separator)}]${junk ?? ''}`;
          const fast = canonicalPage(text);
          const reference = pageBySchema(text);
          // It may decline (the lossless parser then reads the page), never read what the schema does not.
          if (fast !== undefined) expect(fast).toEqual(reference);
          // And it reads every page plants serve writes: canonical lines joined by a comma.
          if (reference !== undefined && text === `[${reference.map(encodePlant).join(',')}]`)
            expect(fast).toEqual(reference);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it.each([
    '',
    '[',
    ']',
    '[{}]',
    '[{"id":1,"name":"a"},]',
    '[{"id":1,"name":"a"}',
    '{"id":1,"name":"a"}',
    '[{"id":1,"name":"a"}] ',
    '[{"id":1,"name":"a"},{"id":2,"name":"b"} ]',
  ])('declines %j', (text) => {
    expect(canonicalPage(text)).toBeUndefined();
  });

  it('reads an empty page and ids beyond a double exactly', () => {
    expect(canonicalPage('[]')).toEqual([]);
    const plants = [
      { id: 9223372036854775807n, name: 'max' },
      { id: 9223372036854775806n, name: '\\', tag: '},{"id":' },
      { id: -9223372036854775808n, name: '"},{"id":2,"name":"', tag: '' },
    ];
    expect(canonicalPage(`[${plants.map(encodePlant).join(',')}]`)).toEqual(plants);
  });
});
