import type { IncomingMessage, ServerResponse } from 'node:http';

/** A path's parameters by name (`{id}`), percent-decoded; not yet checked. */
export type PathParams = Readonly<Record<string, string>>;

/**
 * One row of a listener's table: a method, a path template, and what answers it. `context` is
 * what the listener hands every handler (its store, its limits, the request's exchange).
 */
export interface Route<Context> {
  method: string;
  /** The template: `/plants/{id}`. The log and the metrics name a request by it, never by its path. */
  path: string;
  /** The media types of a body it takes: a body of another is refused (400, unsupported_media_type). */
  accepts?: readonly string[];
  handle(req: IncomingMessage, res: ServerResponse, params: PathParams, context: Context): Promise<void>;
}

/** What a request's target names: a path of the table, its parameters, and the methods it takes. */
export interface RouteMatch<Context> {
  path: string;
  params: PathParams;
  /** The methods of the path, sorted: what a 405's `Allow` says. */
  methods: readonly string[];
  /** The route for a method, if the path takes it. */
  route(method: string | undefined): Route<Context> | undefined;
}

/** The name of a request whose path is none of the table's: the path itself is never named. */
export const OTHER_PATH = '(other path)';

interface Template<Context> {
  path: string;
  pattern: RegExp;
  names: string[];
  routes: Map<string, Route<Context>>;
  methods: string[];
}

/**
 * The routes of one listener, in one table: the request handler dispatches by it, answers 404 and
 * 405 (with `Allow`) from it, and the log and the metrics name requests by its templates.
 */
export class RouteTable<Context> {
  private readonly templates: Template<Context>[] = [];

  /** `owner` names the listener in a 404's message: `the service`. */
  constructor(
    readonly owner: string,
    readonly routes: readonly Route<Context>[],
  ) {
    for (const route of routes) {
      let template = this.templates.find((each) => each.path === route.path);
      if (template === undefined) {
        const names: string[] = [];
        const source = route.path
          .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          .replace(/\{(\w+)\}/g, (_, name: string) => (names.push(name), '([^/]+)'));
        template = { path: route.path, pattern: new RegExp(`^${source}$`), names, routes: new Map(), methods: [] };
        this.templates.push(template);
      }
      if (template.routes.has(route.method)) throw new Error(`two routes for ${route.method} ${route.path}`);
      template.routes.set(route.method, route);
      template.methods = [...template.routes.keys()].sort();
    }
  }

  /** The paths of the table, in its order. */
  get paths(): string[] {
    return this.templates.map((template) => template.path);
  }

  /** A 404's message: `no such resource: the service has /plants and /plants/{id}`. */
  get notFoundMessage(): string {
    const paths = this.paths;
    const listed = paths.length === 1 ? paths[0] : `${paths.slice(0, -1).join(', ')} and ${paths.at(-1)}`;
    return `no such resource: ${this.owner} has ${listed}`;
  }

  /** The path a request's target (path and query) names, if any. */
  match(target: string): RouteMatch<Context> | undefined {
    const path = target.split('?', 1)[0] as string;
    for (const template of this.templates) {
      const found = template.pattern.exec(path);
      if (found === null) continue;
      const params: Record<string, string> = {};
      template.names.forEach((name, i) => (params[name] = decodeSegment(found[i + 1] as string)));
      return {
        path: template.path,
        params,
        methods: template.methods,
        route: (method) => (method === undefined ? undefined : template.routes.get(method)),
      };
    }
    return undefined;
  }

  /** How the log and the metrics name a request for `target`: its template, or OTHER_PATH. */
  nameOf(target: string): string {
    return this.match(target)?.path ?? OTHER_PATH;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // Not percent-encoding: kept as it came, for the parameter's own check to refuse.
    return segment;
  }
}
