import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../core/error-envelope.js';
import { AppError } from '../../core/errors.js';
import { stringifyWithRawJson } from '../../core/raw-json.js';
import { contextOf } from '../../http/writes.js';
import { StreamLagging } from './fanout.js';
import type { EventRecord } from './records.js';
import { eventListResponse, listEventsQuery, streamEventsQuery } from './schemas.js';

const tags = ['events'];

/** D66: a Last-Event-ID header is the seq of the last event the client received. */
function lastEventIdOf(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value)) {
    throw new AppError('INVALID_PARAMETER', 'Last-Event-ID must be the seq of an event', [
      { field: 'Last-Event-ID', code: 'INVALID_PARAMETER', message: 'must be a non-negative integer' },
    ]);
  }
  return Number(value);
}

/**
 * An event as the bytes of its server-sent event: `id`, `event`, and its JSON as `data` lines,
 * made once however many streams write it (streams of one feed are handed the same records,
 * fanout.ts). The library's `send` would format and encode the same text again for each stream,
 * which with a thousand streams open was most of a write's cost. A bare `\r` would end a line for
 * clients, so line breaks (found only between JSON tokens, never inside a string) become `\n`.
 */
const frames = new WeakMap<EventRecord, Buffer>();
function frameOf(event: EventRecord): Buffer {
  let frame = frames.get(event);
  if (frame === undefined) {
    const data = stringifyWithRawJson(event)
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((line) => `data: ${line}\n`)
      .join('');
    frame = Buffer.from(`id: ${event.seq}\nevent: ${event.type}\n${data}\n`);
    frames.set(event, frame);
  }
  return frame;
}

/**
 * Writes a page of events to the stream in one system call (corked); false when the socket's
 * buffer is full and the next page must wait for it to drain.
 */
function writePage(raw: ServerResponse, page: EventRecord[]): boolean {
  raw.cork();
  let room = true;
  for (const event of page) room = raw.write(frameOf(event));
  raw.uncork();
  return room;
}

/** Resolves when the socket drained, or when it failed (the stream's 'close' follows). */
const drained = (raw: ServerResponse) =>
  once(raw, 'drain').then(
    () => {},
    () => {},
  );

/** D66: what a stream dropped for lagging is told last (no id: Last-Event-ID stays the last event's). */
const laggingNotice = {
  reason: 'lagging',
  message: 'The stream fell too far behind the feed and was closed; reconnect with Last-Event-ID to resume.',
};

/** D65, D66: the project's feed, read page by page or followed live. */
export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const { events } = app.services;

  app.get(
    '/events',
    {
      schema: {
        operationId: 'listEvents',
        summary: 'Read the change feed, oldest first',
        description:
          "D65: every committed change of the project as an event, in `seq` order. Pass the answer's `next` as `after` to continue. Events are kept EVENTS_RETENTION_DAYS; an `after` below the oldest kept event answers 410 EVENTS_EXPIRED.",
        tags,
        querystring: listEventsQuery,
        response: { 200: eventListResponse, ...errorResponses(400, 401, 403, 410, 429) },
      },
    },
    async (request) => events.list(contextOf(request), request.query),
  );

  app.get(
    '/events/stream',
    {
      sse: { kind: 'manual' },
      schema: {
        operationId: 'streamEvents',
        summary: 'Follow the change feed live (server-sent events)',
        description:
          'D66: each event as `id: <seq>`, `event: <type>`, `data: <event JSON>`, and a comment line every 15 s. Without a cursor the stream starts with the next new event; a `Last-Event-ID` header or `after` resumes without loss or duplicates.',
        tags,
        querystring: streamEventsQuery,
        headers: z.object({
          'last-event-id': z.string().max(64).optional().describe('The seq of the last event received'),
        }),
        response: {
          200: {
            description: 'A text/event-stream of events',
            content: { 'text/event-stream': { schema: z.string() } },
          },
          ...errorResponses(400, 401, 403, 410, 429),
        },
      },
    },
    async (request, reply) => {
      const closed = new AbortController();
      reply.raw.once('close', () => closed.abort());
      // A full socket's 'drain' never comes once the client has gone: the stream must not wait
      // for it then.
      const gone = new Promise<void>((resolve) => closed.signal.addEventListener('abort', () => resolve()));
      const ctx = contextOf(request);
      const { after, ...filter } = request.query;
      const start = await events.streamStart(ctx, lastEventIdOf(request.headers['last-event-id']) ?? after);
      if (reply.raw.destroyed) return;
      // Headers now (Node holds them back until the first byte otherwise), so that the client
      // knows the stream is open; heartbeats start with them.
      reply.sse.sendHeaders(200);
      reply.raw.flushHeaders();
      // D66: a client that takes its events more slowly than they come is let go (lagging) once
      // EVENTS_STREAM_BACKLOG events wait for it, rather than held in memory without bound.
      const lagging = new AbortController();
      const dropped = new Promise<void>((resolve) =>
        lagging.signal.addEventListener('abort', () => resolve()),
      );
      const follow = events.follow(ctx, start, filter, {
        signal: closed.signal,
        backlog: app.config.EVENTS_STREAM_BACKLOG,
        onLagging: () => lagging.abort(),
      });
      try {
        for await (const page of follow) {
          if (closed.signal.aborted || !reply.sse.isConnected) return;
          if (lagging.signal.aborted) break;
          if (!writePage(reply.raw, page)) await Promise.race([drained(reply.raw), gone, dropped]);
        }
        if (lagging.signal.aborted) throw new StreamLagging();
      } catch (error) {
        if (!(error instanceof StreamLagging)) throw error;
        if (!reply.sse.isConnected) return;
        // Queued behind what the socket still holds; the client reads it after the last event it got.
        void reply.sse.send({ event: 'stream.closed', data: laggingNotice });
        reply.sse.close();
      }
    },
  );
};
