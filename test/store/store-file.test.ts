import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodePlant } from '../../src/core/plant-line.js';
import { appendToStoreFile, encodeStoreLines } from '../../src/store/store-file.js';

const lines = fc.array(
  fc.record({ id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), name: fc.string({ minLength: 1, maxLength: 20 }), tag: fc.option(fc.string({ minLength: 1, maxLength: 5 }), { nil: undefined }) }),
  { maxLength: 8 },
).map((plants) => plants.map((plant) => encodePlant(plant.tag === undefined ? { id: plant.id, name: plant.name } : { id: plant.id, name: plant.name, tag: plant.tag })));

const journal = (added: readonly string[]) => Buffer.from(added.map((line) => `${line}\n`).join(''));

describe('folding journal lines into a store file as bytes', () => {
  it('gives the file that the old lines and the new ones make, byte for byte', () => {
    fc.assert(
      fc.property(lines, lines, (old, added) => {
        const file = Buffer.from(encodeStoreLines(old));
        expect(appendToStoreFile(file, journal(added)).toString()).toBe(encodeStoreLines([...old, ...added]));
      }),
    );
  });

  it('makes a store of the lines where there is no file yet', () => {
    fc.assert(
      fc.property(lines, (added) => {
        expect(appendToStoreFile(undefined, journal(added)).toString()).toBe(encodeStoreLines(added));
      }),
    );
  });

  it('leaves out a torn last line, which has no newline', () => {
    const file = Buffer.from(encodeStoreLines(['{"id":1,"name":"a"}']));
    const torn = Buffer.from('{"id":2,"name":"b"}\n{"id":3,"na');
    expect(appendToStoreFile(file, torn).toString()).toBe(encodeStoreLines(['{"id":1,"name":"a"}', '{"id":2,"name":"b"}']));
    expect(appendToStoreFile(file, Buffer.from('{"id":3,"na'))).toEqual(file);
  });
});
