import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { integerFromJsonNumberText } from '../../../src/core/json.js';
import { jsonNumberText, parseJson } from '../../../src/core/json.js';
import { PLANT_ROUTES } from '../../../src/server/plant-routes.js';

/** The repository's OpenAPI document, the yardstick for every answer in these tests. */
export const openapi = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8')) as OpenApi;

interface Schema {
  $ref?: string;
  type?: 'object' | 'string' | 'integer' | 'array';
  items?: Schema;
  maxItems?: number;
  format?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: string[];
}
interface ResponseSpec {
  $ref?: string;
  description: string;
  headers?: Record<string, { $ref?: string; required?: boolean; schema?: Schema }>;
  content?: Record<string, { schema: Schema }>;
}
/** A parameter of an operation, or a `$ref` to one of components.parameters. */
export interface Parameter {
  $ref?: string;
  name?: string;
  in?: string;
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  requestBody: { required: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, ResponseSpec>;
  parameters?: Parameter[];
  'x-plants-extension'?: boolean;
}

export interface OpenApi {
  openapi: string;
  info: { version: string; license: { name: string } };
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; scheme: string }>;
    schemas: Record<string, Schema>;
    headers: Record<string, { required?: boolean; schema: Schema }>;
    responses: Record<string, ResponseSpec>;
    parameters: Record<string, Parameter>;
  };
}

/** Follows a local `$ref` (`#/components/…`) to what it names. */
export function resolve<T extends { $ref?: string }>(node: T): T {
  if (node.$ref === undefined) return node;
  let target: unknown = openapi;
  for (const part of node.$ref.replace(/^#\//, '').split('/')) target = (target as Record<string, unknown>)[part];
  if (target === undefined) throw new Error(`dangling $ref ${node.$ref}`);
  return resolve(target as T);
}

const INT_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

/**
 * The problems of a value parsed by parseJson against a schema of the document: the subset of
 * OpenAPI 3.0 schemas it uses (object, string, integer with int32/int64, length, pattern, enum).
 */
export function schemaProblems(value: unknown, schemaOrRef: Schema, at = 'body'): string[] {
  const schema = resolve(schemaOrRef);
  switch (schema.type) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || jsonNumberText(value) !== undefined) {
        return [`${at} is not an object`];
      }
      const record = value as Record<string, unknown>;
      const problems = (schema.required ?? [])
        .filter((key) => !(key in record))
        .map((key) => `${at}.${key} is missing`);
      for (const [key, field] of Object.entries(record)) {
        const fieldSchema = schema.properties?.[key];
        if (fieldSchema !== undefined) problems.push(...schemaProblems(field, fieldSchema, `${at}.${key}`));
        else if (schema.additionalProperties === false) problems.push(`${at}.${key} is not allowed`);
      }
      return problems;
    }
    case 'string': {
      if (typeof value !== 'string') return [`${at} is not a string`];
      const length = [...value].length;
      if (schema.minLength !== undefined && length < schema.minLength)
        return [`${at} is shorter than ${schema.minLength}`];
      if (schema.maxLength !== undefined && length > schema.maxLength)
        return [`${at} is longer than ${schema.maxLength}`];
      if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value))
        return [`${at} does not match ${schema.pattern}`];
      if (schema.enum !== undefined && !schema.enum.includes(value))
        return [`${at} is not one of ${schema.enum.join(', ')}`];
      return [];
    }
    case 'array': {
      if (!Array.isArray(value)) return [`${at} is not an array`];
      if (schema.maxItems !== undefined && value.length > schema.maxItems)
        return [`${at} has more than ${schema.maxItems} items`];
      return value.flatMap((item, index) => schemaProblems(item, schema.items ?? {}, `${at}[${index}]`));
    }
    case 'integer': {
      const text = jsonNumberText(value);
      const integer = text === undefined ? undefined : integerFromJsonNumberText(text);
      if (typeof integer !== 'bigint') return [`${at} is not an integer`];
      const range = schema.format === undefined ? undefined : INT_RANGES[schema.format];
      if (range !== undefined && (integer < range[0] || integer > range[1]))
        return [`${at} is out of the ${schema.format} range`];
      return [];
    }
    default:
      throw new Error(`schema type ${String(schema.type)} is not supported by this checker`);
  }
}

/** The response the document gives for a status: the operation's own, else a named one (404, 405, …). */
function documentedResponse(status: number, method: string, target: string): ResponseSpec | undefined {
  const match = PLANT_ROUTES.match(target);
  const operation = match === undefined ? undefined : openapi.paths[match.path]?.[method.toLowerCase()];
  const own = operation?.responses[String(status)];
  if (own !== undefined) return resolve(own);
  // Answers given before a request reaches an operation: for any path and method.
  const named: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    404: 'NotFound',
    405: 'MethodNotAllowed',
    408: 'RequestTimeout',
    413: 'PayloadTooLarge',
    431: 'HeadersTooLarge',
    505: 'HttpVersionNotSupported',
  };
  const name = named[status];
  return name === undefined ? undefined : openapi.components.responses[name];
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Asserts that an answer is one the document describes: a documented status, its content type, its
 * required headers, and a body that matches its schema (a Plant for 200, an Error otherwise).
 * Returns the parsed body.
 */
export function expectDocumentedAnswer(answer: Answer, request: { method: string; path: string }): unknown {
  const spec = documentedResponse(answer.status, request.method, request.path);
  expect(
    spec,
    `status ${answer.status} of ${request.method} ${request.path} is documented (body: ${answer.body})`,
  ).toBeDefined();
  if (answer.status === 204) {
    expect(spec?.content, 'a 204 has no body').toBeUndefined();
    expect(answer.body).toBe('');
    return undefined;
  }
  const media = spec?.content?.['application/json'];
  expect(media, `status ${answer.status} has an application/json body`).toBeDefined();
  expect(String(answer.headers['content-type']).split(';')[0]).toBe('application/json');
  for (const [name, header] of Object.entries(spec?.headers ?? {})) {
    const { required, schema } = resolve(header);
    const value = answer.headers[name.toLowerCase()];
    if (required) expect(value, `header ${name} on ${answer.status}`).toBeDefined();
    if (value !== undefined && schema !== undefined && schema.type === 'string') {
      expect(schemaProblems(String(value), schema, name)).toEqual([]);
    }
  }
  let body: unknown;
  expect(() => (body = parseJson(answer.body)), `body is JSON: ${answer.body}`).not.toThrow();
  expect(schemaProblems(body, media?.schema ?? {}), `body ${answer.body}`).toEqual([]);
  return body;
}
