import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../core/errors.js';

// D100: what a browser can be made to send. A page on another site may call a server on the
// visitor's machine (its Origin header says so), and a DNS name rebound to 127.0.0.1 reaches a
// loopback server with that foreign name in Host. The MCP specification asks Streamable HTTP
// servers to refuse both; REST gets the same rule. Requests without Origin (servers, CLIs, SDKs)
// are not browser requests and pass the Origin check untouched.

/** The names a loopback listener answers to, whatever the port. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** Whether HOST makes the server reachable from this machine only. */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/** The host names a Host header may carry; undefined: any (D100's default off loopback). */
export function allowedHosts(
  config: Pick<Config, 'ALLOWED_HOSTS' | 'HOST'>,
): ReadonlySet<string> | undefined {
  if (config.ALLOWED_HOSTS === '*') return undefined;
  if (config.ALLOWED_HOSTS) return new Set(config.ALLOWED_HOSTS);
  return isLoopbackHost(config.HOST) ? new Set(LOOPBACK_NAMES) : undefined;
}

/** Characters a Host header may hold: a name or address and a port, nothing else (no userinfo). */
const HOST_HEADER = /^[A-Za-z0-9.\-[\]:]+$/;

/** The host name of a Host header value, without its port, lower-cased; undefined when malformed. */
function hostNameOf(header: string): string | undefined {
  if (!HOST_HEADER.test(header)) return undefined;
  try {
    return new URL(`http://${header}`).hostname;
  } catch {
    return undefined;
  }
}

export function registerBrowserGuard(app: FastifyInstance, config: Config): void {
  const hosts = allowedHosts(config);
  const corsOrigins = config.CORS_ORIGINS;
  const originAllowed = (request: FastifyRequest, origin: string): boolean => {
    if (corsOrigins === '*') return true;
    if (corsOrigins?.includes(origin)) return true;
    // The server's own origin: a page it served (the console) calling it back. Through URL, so
    // that a default port (http://localhost:80 in Host) compares equal to the browser's form.
    try {
      return new URL(origin).origin === new URL(`${request.protocol}://${request.host}`).origin;
    } catch {
      return false;
    }
  };
  app.addHook('onRequest', async (request) => {
    if (hosts) {
      const name = hostNameOf(request.headers.host ?? '');
      if (!name || !hosts.has(name)) {
        throw new AppError(
          'HOST_NOT_ALLOWED',
          `Host ${JSON.stringify(request.headers.host ?? '')} is not served here; set ALLOWED_HOSTS to the names clients use`,
        );
      }
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !originAllowed(request, origin)) {
      throw new AppError(
        'ORIGIN_NOT_ALLOWED',
        `Requests from pages at ${origin} are not allowed; list the origin in CORS_ORIGINS to allow it`,
      );
    }
  });
}
