import type { FastifyInstance } from 'fastify';

// D91: a lingering close for refused oversize bodies. A body over BODY_LIMIT_BYTES is answered
// with 413 before it has all arrived, and Fastify asks for the connection to close. Closed at once,
// the socket still has the client's unread bytes coming in, so the server's kernel answers them
// with a reset; a client still writing then sees EPIPE or ECONNRESET and may never read the 413.
// Instead the 413 goes out on a connection kept open while the rest of the body is read and thrown
// away; once the request has ended the connection is an ordinary idle one (the client closes it,
// or the server's keep-alive timeout does). Past a bound on bytes or time the socket is destroyed.

/** Discarded at most: as many bytes again as the route's body limit, and at least 1 MiB. */
const discardBoundBytes = (bodyLimit: number): number => Math.max(bodyLimit, 1024 * 1024);
/** A client that sends the rest slower than this is cut off. */
const DISCARD_WINDOW_MS = 10_000;

export function registerLingeringClose(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const incoming = request.raw;
    if (reply.statusCode !== 413 || incoming.complete) return payload;
    const socket = incoming.socket;
    const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0;
    const bound = discardBoundBytes(limit);
    // A body declared far past the bound is not worth waiting for: closed at once, as Fastify asked.
    if (Number(incoming.headers['content-length']) > limit + bound) return payload;

    reply.removeHeader('connection');
    reply.raw.shouldKeepAlive = true;
    let discarded = 0;
    const cutOff = () => socket.destroy();
    const timer = setTimeout(cutOff, DISCARD_WINDOW_MS).unref();
    incoming.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > bound) cutOff();
    });
    incoming.once('end', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
    incoming.resume();
    return payload;
  });
}
