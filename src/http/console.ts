import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../core/errors.js';

// D102: the web console, a separate build (console/, `npm run build:console`, run by `npm install`)
// that the server only serves as files: no server code imports it, and it talks to the server
// through the public API like any other client.

/** Where `npm run build:console` writes the console. */
const CONSOLE_BUILD_DIR = fileURLToPath(new URL('../../console/dist/', import.meta.url));

/**
 * D101: what a console page may do. Scripts, styles, images and API calls from the server itself
 * only; no inline script or style attribute set by markup, no plugin, no framing (clickjacking),
 * no <base> rewriting, forms posting nowhere else.
 */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function secureHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', CONSOLE_CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
  reply.header('cross-origin-opener-policy', 'same-origin');
}

/** Serves the built console under /console; every other path below it is a page of its own (History API). */
export async function registerConsole(app: FastifyInstance, root = CONSOLE_BUILD_DIR): Promise<void> {
  await app.register(
    async (scope) => {
      scope.addHook('onRequest', async (_request, reply) => secureHeaders(reply));
      if (!existsSync(`${root}/index.html`)) {
        // A checkout whose console was not built (install scripts skipped): say how to build it.
        scope.get('/*', { schema: { hide: true } }, async () => {
          throw new AppError(
            'SERVICE_UNAVAILABLE',
            'The console is not built: run npm run build:console (npm install runs it)',
          );
        });
        return;
      }
      await scope.register(fastifyStatic, {
        root,
        prefix: '/',
        wildcard: false,
        index: false,
        // Built assets carry a content hash in their names: kept for a year; index.html never is.
        setHeaders: (res, path) => {
          res.header(
            'cache-control',
            path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
          );
        },
        schemaHide: true,
      });
      const page = (_request: unknown, reply: FastifyReply) =>
        reply.header('cache-control', 'no-cache').sendFile('index.html');
      scope.get('/', { schema: { hide: true } }, page);
      scope.get('/*', { schema: { hide: true } }, page);
      // A missing script or style is an error, not a page: index.html in its place would hide it.
      scope.get('/assets/*', { schema: { hide: true } }, async (request) => {
        throw new AppError('RESOURCE_NOT_FOUND', `${request.url} not found`);
      });
    },
    { prefix: '/console' },
  );
}
