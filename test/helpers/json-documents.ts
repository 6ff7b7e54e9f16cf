import fc from 'fast-check';

/**
 * JSON documents for a reader's property test, as text: an object holding any of `keys`, each with
 * a value of `values` (JSON text), or one of those values alone.
 */
export function jsonDocuments(keys: readonly string[], values: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const fields = fc.record(Object.fromEntries(keys.map((key) => [key, values])), { requiredKeys: [] });
  return fc.oneof(
    fields.map(
      (chosen) =>
        `{${Object.entries(chosen)
          .map(([key, value]) => `${JSON.stringify(key)}:${value}`)
          .join(',')}}`,
    ),
    values,
  );
}
