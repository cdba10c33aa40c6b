import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { AppError } from '../core/errors.js';

// D84: a known path called with a method it lacks is 405 METHOD_NOT_ALLOWED with an `Allow` header;
// only a path no route has is 404. Fastify's router answers both with its not-found handler, so
// the routes are mirrored, path by method, in a router of their own that the handler asks.

/** The methods a route can be called with, in the order `Allow` lists them. */
const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export type AllowedMethods = (path: string) => HTTPMethod[];

/**
 * Starts mirroring every route registered from now on; the function returned lists the methods
 * a path has (none: no route has that path). `routerOptions` are the app's, so that both routers
 * read a path the same way (trailing slash, parameter length).
 */
export function mirrorRoutes(
  app: FastifyInstance,
  routerOptions: { ignoreTrailingSlash: boolean; maxParamLength: number },
): AllowedMethods {
  const router = FindMyWay(routerOptions);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods.map((name) => name.toUpperCase() as HTTPMethod)) {
      if (!router.hasRoute(method, route.url)) router.on(method, route.url, () => {});
    }
  });
  return (path) => METHODS.filter((method) => router.find(method, path) !== null);
}

/** The error of D84 for `method` on a path that has `allowed`, or undefined when it has none. */
export function methodNotAllowed(method: string, path: string, allowed: HTTPMethod[]): AppError | undefined {
  if (allowed.length === 0) return undefined;
  return new AppError(
    'METHOD_NOT_ALLOWED',
    `${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
  );
}
