import { describe, expect, it } from 'vitest';
import { PLANT_ROUTES } from '../../src/server/plant-routes.js';
import { OTHER_PATH, RouteTable } from '../../src/server/routes.js';

const handle = async () => undefined;

describe('the route table', () => {
  it('is the one list of the service: method, template and handler', () => {
    expect(PLANT_ROUTES.routes.map((route) => `${route.method} ${route.path}`)).toEqual([
      'POST /plants',
      'GET /plants',
      'GET /plants/count',
      'GET /plants/{id}',
      'PUT /plants/{id}',
      'PATCH /plants/{id}',
      'DELETE /plants/{id}',
    ]);
    const paths = '/plants, /plants/count and /plants/{id}';
    expect(PLANT_ROUTES.notFoundMessage).toBe(`no such resource: the service has ${paths}`);
  });

  it('matches a target by its path alone, with its parameters percent-decoded, and names the rest OTHER_PATH', () => {
    expect(PLANT_ROUTES.match('/plants?limit=2')).toMatchObject({
      path: '/plants',
      params: {},
      methods: ['GET', 'POST'],
    });
    expect(PLANT_ROUTES.match('/plants/-12%33')).toMatchObject({
      path: '/plants/{id}',
      params: { id: '-123' },
      methods: ['DELETE', 'GET', 'PATCH', 'PUT'],
    });
    // Not percent-encoding: kept as it came, for the id check to refuse.
    expect(PLANT_ROUTES.match('/plants/%E0%A4%A')?.params).toEqual({ id: '%E0%A4%A' });
    for (const target of ['/', '/plants/', '/plants/1/x', '/Plants', '/v1/plants', '/plants.json'])
      expect(PLANT_ROUTES.match(target), target).toBeUndefined();
    expect(PLANT_ROUTES.nameOf('/TOKEN/plants')).toBe(OTHER_PATH);
    expect(PLANT_ROUTES.match('/plants/1')?.route('POST')).toBeUndefined();
    expect(PLANT_ROUTES.match('/plants/1')?.route('DELETE')?.method).toBe('DELETE');
  });

  it('refuses a table with two routes for one method and path', () => {
    expect(
      () =>
        new RouteTable('x', [
          { method: 'GET', path: '/a', handle },
          { method: 'GET', path: '/a', handle },
        ]),
    ).toThrow(/two routes for GET \/a/);
    expect(
      new RouteTable('the admin port', [
        { method: 'GET', path: '/a.b', handle },
        { method: 'GET', path: '/c', handle },
        { method: 'GET', path: '/d', handle },
      ]).notFoundMessage,
    ).toBe('no such resource: the admin port has /a.b, /c and /d');
    expect(new RouteTable('x', [{ method: 'GET', path: '/a.b', handle }]).match('/aXb')).toBeUndefined();
  });
});
