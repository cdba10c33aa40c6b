import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Node as JsonNode, findNodeAtLocation, parseTree } from 'jsonc-parser';
import { AppError } from '../core/errors.js';
import { RawJson } from '../core/raw-json.js';

// JSON bodies keep their raw text so that message content can be stored exactly as sent (D28).

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
    rawBodyTree?: JsonNode;
  }
}

/** Deeper nesting than this is refused: it serves no conversation and strains every parser. */
const MAX_JSON_DEPTH = 128;

/** Deepest nesting of arrays and objects in a JSON text, skipping strings. */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as text, or undefined when it is not UTF-8 (RFC 8259). Decoding with replacement
 * characters instead would store something other than what was sent (D28).
 */
function decodeUtf8(body: Buffer): string | undefined {
  try {
    return utf8.decode(body);
  } catch {
    return undefined;
  }
}

/** Parses a JSON body, keeping its raw text for rawJsonAt. */
function parseJsonBody(
  request: FastifyRequest,
  body: string | Buffer,
  done: (err: Error | null, body?: unknown) => void,
) {
  const text = typeof body === 'string' ? body : decodeUtf8(body);
  if (text === undefined) return done(new AppError('INVALID_INPUT', 'The request body is not valid UTF-8'));
  if (text.trim() === '') return done(null, undefined);
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    return done(new AppError('INVALID_INPUT', `JSON nested deeper than ${MAX_JSON_DEPTH} levels`));
  }
  try {
    const parsed: unknown = JSON.parse(text);
    request.rawBody = text;
    done(null, parsed);
  } catch {
    done(new AppError('INVALID_INPUT', 'The request body is not valid JSON'));
  }
}

export function registerJsonBodyParser(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  const options = { parseAs: 'buffer' as const, bodyLimit };
  app.addContentTypeParser('application/json', options, parseJsonBody);
  // D52: the DialogueDB client sets no Content-Type, so its JSON arrives as text/plain (with any
  // charset: the body is read as UTF-8 whatever it says, as for application/json) or without one.
  app.addContentTypeParser('text/plain', options, parseJsonBody);
  // '*' is also the parser Fastify picks for a body without a Content-Type; any other media type
  // that reaches it is refused with 415 UNSUPPORTED_MEDIA_TYPE.
  app.addContentTypeParser('*', options, (request: FastifyRequest, body: string | Buffer, done) => {
    if (request.headers['content-type'] !== undefined) {
      return done(
        new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send request bodies as JSON: application/json, text/plain or no Content-Type',
        ),
      );
    }
    parseJsonBody(request, body, done);
  });
}

/**
 * The exact JSON text of the body value at `path` (e.g. ['messages', 3, 'content']), or
 * undefined when the body has no value there.
 */
export function rawJsonAt(request: FastifyRequest, path: (string | number)[]): RawJson | undefined {
  if (request.rawBody === undefined) return undefined;
  request.rawBodyTree ??= parseTree(request.rawBody, [], { disallowComments: true });
  if (!request.rawBodyTree) return undefined;
  const node = findNodeAtLocation(request.rawBodyTree, path);
  if (!node) return undefined;
  return new RawJson(request.rawBody.slice(node.offset, node.offset + node.length));
}
