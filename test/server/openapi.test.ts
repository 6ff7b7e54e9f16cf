import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { ERROR_NUMBERS } from '../../src/core/errors.js';
import { parseJson } from '../../src/core/json.js';
import { ErrorBodySchema, LIMITS, NewPlantSchema, PlantSchema } from '../../src/core/schemas.js';
import { DEFAULT_LIMITS } from '../../src/server/app.js';
import { openapi, resolve, schemaProblems, type Operation } from './support/openapi.js';

type JsonSchema = {
  type?: string;
  format?: string;
  properties?: Record<string, JsonSchema & { $ref?: string }>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
};

/** zod's view of a schema: what it outputs. Our integer fields are transforms, which come out as `{}`. */
function zodJsonSchema(schema: $ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
}

const INTEGER_BOUNDS: Record<string, [string, string, string, string]> = {
  // format: [min, max, below min, above max]
  int64: ['-9223372036854775808', '9223372036854775807', '-9223372036854775809', '9223372036854775808'],
  int32: ['-2147483648', '2147483647', '-2147483649', '2147483648'],
};

describe('openapi.json', () => {
  it('is the contract: OpenAPI 3.0.3, version 1.0.0, MIT, bearer auth on POST /plants', () => {
    expect(openapi.openapi).toBe('3.0.3');
    expect(openapi.info.version).toBe('1.0.0');
    expect(openapi.info.license.name).toBe('MIT');
    expect(openapi.security).toEqual([{ bearerAuth: [] }]);
    expect(openapi.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(openapi.paths)).toEqual(['/plants', '/plants/count', '/plants/{id}']);
    // Every operation but the contract's own is marked as an extension.
    const operations = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => method !== 'parameters')
        .map(([method, operation]) => [`${method} ${path}`, operation['x-plants-extension'] === true] as const),
    );
    expect(operations.sort()).toEqual([
      ['delete /plants/{id}', true],
      ['get /plants', true],
      ['get /plants/count', true],
      ['get /plants/{id}', true],
      ['patch /plants/{id}', true],
      ['post /plants', false],
      ['put /plants/{id}', true],
    ]);
    const post = openapi.paths['/plants']?.post;
    expect(post?.requestBody.required).toBe(true);
    expect(post?.requestBody.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/NewPlant' });
    expect(resolve(post!.responses['200']!).content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Plant',
    });
  });

  it('gives every status the server answers an Error body, with the headers it sends', () => {
    const responses = openapi.paths['/plants']!.post!.responses;
    expect(Object.keys(responses).sort()).toEqual(['200', '400', '401', '413', '500', '503']);
    const named = openapi.components.responses;
    const failures = Object.values(openapi.paths).flatMap((methods) =>
      Object.entries(methods)
        .filter(([method]) => method !== 'parameters')
        .flatMap(([, operation]) =>
          Object.entries(operation.responses)
            .filter(([status]) => Number(status) >= 400)
            .map(([, response]) => response),
        ),
    );
    for (const response of [...failures, ...Object.values(named)]) {
      expect(resolve(response).content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
    expect(Object.keys(resolve(responses['401']!).headers ?? {})).toEqual(['WWW-Authenticate']);
    expect(Object.keys(named.MethodNotAllowed?.headers ?? {})).toEqual(['Allow']);
    expect(named.NotFound).toBeDefined();
  });

  it('has no dangling $ref', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === 'object' && node !== null) {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref') refs.push(value as string);
          else walk(value);
        }
      }
    };
    walk(openapi);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) expect(() => resolve({ $ref: ref }), ref).not.toThrow();
  });

  it('documents the error numbers of the catalogue and the default limits', () => {
    const description = (openapi.info as { description?: string }).description ?? '';
    const documented = [...description.matchAll(/(\d{4}) ([a-z_]+)/g)].map(([, number, code]) => [
      code,
      Number(number),
    ]);
    // Every number of the service's part of the catalogue (1001-1999), each with its code.
    expect(documented.length).toBe(Object.values(ERROR_NUMBERS).filter((number) => number < 2000).length);
    for (const [code, number] of documented) expect(ERROR_NUMBERS[code as keyof typeof ERROR_NUMBERS]).toBe(number);
    expect(description).toContain(`${DEFAULT_LIMITS.maxBodyBytes / 1024} KiB`);
    expect(description).toContain(`within ${DEFAULT_LIMITS.headersTimeoutMs / 1000} s`);
    expect(description).toContain(`within ${DEFAULT_LIMITS.requestTimeoutMs / 1000} s`);
    expect(description).toContain(`after ${DEFAULT_LIMITS.keepAliveTimeoutMs / 1000} s`);
    expect(description).toContain(`at most ${DEFAULT_LIMITS.maxConnections.toLocaleString('en')} connections`);
  });

  describe.each([
    ['NewPlant', NewPlantSchema],
    ['Plant', PlantSchema],
    ['Error', ErrorBodySchema],
  ] as const)('%s agrees with the zod schema', (name, zodSchema) => {
    const documented = openapi.components.schemas[name]!;
    const fromZod = zodJsonSchema(zodSchema);

    it('has the same fields, and the same required ones', () => {
      expect(documented.type).toBe('object');
      expect(Object.keys(documented.properties ?? {}).sort()).toEqual(Object.keys(fromZod.properties ?? {}).sort());
      expect([...(documented.required ?? [])].sort()).toEqual([...(fromZod.required ?? [])].sort());
    });

    it('gives string fields the type string, and accepts exactly the strings zod does, at and past the limit', () => {
      const long = LIMITS.textMaxCharacters;
      const samples = [
        '',
        'Fern',
        '\u0000\t\n\u001b[31m\u007f\u0085',
        '\ud800',
        'x\udfff',
        '\u200f\u202eesreveR',
        '\u{1F331}',
        'x'.repeat(long),
        'x'.repeat(long + 1),
        '\u{1F331}'.repeat(long),
        '\u{1F331}'.repeat(long + 1),
        '\ud800'.repeat(long),
        '\udc00'.repeat(long + 1),
      ];
      const others = { id: 1, name: 'n', error: 1, message: 'm' };
      for (const [field, zodField] of Object.entries(fromZod.properties ?? {})) {
        if (zodField.type === undefined) continue;
        expect(resolve(documented.properties![field]!).type, field).toBe('string');
        for (const sample of samples) {
          const valueOf = (key: string) => (key === field ? sample : others[key as keyof typeof others]);
          const values = Object.keys(fromZod.properties ?? {}).map((key) => [key, valueOf(key)]);
          const body = parseJson(JSON.stringify(Object.fromEntries(values)));
          const byZod = zodSchema.safeParse(body).success;
          const byDocument = schemaProblems(body, documented).length === 0;
          const about = `${field} of ${[...sample].length} characters: ${JSON.stringify(sample.slice(0, 12))}`;
          expect(byDocument, about).toBe(byZod);
        }
      }
    });

    it('documents as integers exactly the fields zod reads as exact integers, with the range it enforces', () => {
      const checked: string[] = [];
      for (const [field, zodField] of Object.entries(fromZod.properties ?? {})) {
        if (zodField.type !== undefined) continue;
        checked.push(field);
        const field_ = resolve(documented.properties![field]!);
        expect(field_.type, field).toBe('integer');
        const bounds = INTEGER_BOUNDS[field_.format ?? ''];
        expect(bounds, `${field} has an int32 or int64 format`).toBeDefined();
        const [min, max, belowMin, aboveMax] = bounds!;
        // A valid body of this schema with the field set to the JSON text given.
        const others = Object.entries({ id: '1', name: '"n"', error: '1', message: '"m"' })
          .filter(([key]) => key !== field && key in (fromZod.properties ?? {}))
          .map(([key, value]) => `"${key}": ${value}, `)
          .join('');
        const withField = (text: string) => parseJson(`{${others}"${field}": ${text}}`);
        for (const ok of [min, max, '0', '1.0', '1e2']) {
          expect(zodSchema.safeParse(withField(ok)).success, `${field} = ${ok}`).toBe(true);
          expect(schemaProblems(withField(ok), documented), `${field} = ${ok}`).toEqual([]);
        }
        for (const bad of [belowMin, aboveMax, '1.5', '"1"', 'null', 'true']) {
          expect(zodSchema.safeParse(withField(bad)).success, `${field} = ${bad}`).toBe(false);
          expect(schemaProblems(withField(bad), documented), `${field} = ${bad}`).not.toEqual([]);
        }
      }
      // Every documented integer was checked above: none slipped through as a typed zod field.
      const documentedIntegers = Object.entries(documented.properties ?? {}).filter(
        ([, field]) => resolve(field).type === 'integer',
      );
      expect(checked.sort()).toEqual(documentedIntegers.map(([field]) => field).sort());
    });
  });

  it("documents the length limit of names and tags, and no other restriction of the contract's strings", () => {
    expect(openapi.components.schemas.Text).toEqual({
      type: 'string',
      maxLength: LIMITS.textMaxCharacters,
      description: expect.any(String),
    });
  });

  it('documents the query parameters the server takes, no more and no fewer: a search as long as a name', () => {
    const names = (operation: Operation | undefined) => (operation?.parameters ?? []).map((each) => resolve(each).name);
    expect(names(openapi.paths['/plants']?.get)).toEqual(['limit', 'after', 'tag', 'search']);
    expect(names(openapi.paths['/plants/count']?.get)).toEqual(['tag', 'search']);
    const search = { schema: { type: 'string', maxLength: LIMITS.textMaxCharacters } };
    expect(openapi.components.parameters.Search).toMatchObject(search);
  });

  it('specifies id as int64 and error as int32', () => {
    expect(openapi.components.schemas.NewPlant?.properties?.id).toMatchObject({ type: 'integer', format: 'int64' });
    expect(openapi.components.schemas.Error?.properties?.error).toMatchObject({ type: 'integer', format: 'int32' });
  });
});
