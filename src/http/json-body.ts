import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type Node as JsonNode,
  type ParseError,
  findNodeAtLocation,
  parse,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
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
  } catch (error) {
    done(
      new AppError(
        'INVALID_INPUT',
        `The request body is not valid JSON: ${whereJsonFails(text, error as Error)}`,
      ),
    );
  }
}

/**
 * Where and why a text that JSON.parse refused fails, as `value expected at line 3, column 5
 * (position 17), found "}"`: Node's own message names no line, and since Node 22 often no
 * position. jsonc-parser, held to strict JSON, finds the first error; if it finds none (the two
 * disagree on some edge), JSON.parse's message is the answer.
 */
function whereJsonFails(text: string, parseError: Error): string {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return parseError.message;
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - (before.lastIndexOf('\n') + 1) + 1;
  const problem = printParseErrorCode(first.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const found =
    first.offset < text.length
      ? JSON.stringify(text.slice(first.offset, first.offset + Math.max(first.length, 1)))
      : 'the end of the body';
  return `${problem} at line ${line}, column ${column} (position ${first.offset}), found ${found}`;
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
