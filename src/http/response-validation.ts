import type { FastifyRequest, FastifySerializerCompiler } from 'fastify';
import type { z } from 'zod';
import { stringifyWithRawJson } from '../core/raw-json.js';
import { formatPath } from '../core/validation.js';

// A test-mode check that every response matches the zod schema its route declares for that
// status, the schema the OpenAPI document is generated from (buildApp's `validateResponses`).
// Off in production: the serializer is then the plain one and nothing else runs.

/** A response that does not match its declared schema: a bug in the server, answered with 500. */
export class ResponseValidationError extends Error {
  constructor(
    readonly route: string,
    /** The status of the response checked (not `statusCode`: Fastify would answer with it). */
    readonly responseStatus: number,
    /** `field: message` per problem: zod's issues, then keys the schema does not declare. */
    readonly issues: string[],
  ) {
    super(`Response ${responseStatus} of ${route} does not match its schema: ${issues.join('; ')}`);
    this.name = 'ResponseValidationError';
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * Keys that `sent` carries and zod's output dropped: fields the schema does not declare (a zod
 * object strips them silently), which would reach clients undocumented. Keys holding undefined
 * are left out, as JSON.stringify leaves them out.
 */
function undeclaredKeys(sent: unknown, parsed: unknown, path: PropertyKey[] = []): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) {
    return sent.flatMap((item, index) => undeclaredKeys(item, parsed[index], [...path, index]));
  }
  if (!isPlainObject(sent) || !isPlainObject(parsed)) return [];
  return Object.keys(sent).flatMap((key) => {
    if (sent[key] === undefined) return [];
    if (!(key in parsed)) return [`${formatPath([...path, key])}: not declared in the schema`];
    return undeclaredKeys(sent[key], parsed[key], [...path, key]);
  });
}

/** Throws a ResponseValidationError unless `body` matches `schema` exactly (no undeclared keys). */
function checkResponse(schema: z.ZodType, body: unknown, route: string, statusCode: number): void {
  const result = schema.safeParse(body);
  const issues = result.success
    ? undeclaredKeys(body, result.data)
    : result.error.issues.map((issue) => `${formatPath(issue.path) || '(body)'}: ${issue.message}`);
  if (issues.length > 0) throw new ResponseValidationError(route, statusCode, issues);
}

const isZodSchema = (schema: unknown): schema is z.ZodType =>
  typeof (schema as { safeParse?: unknown } | null)?.safeParse === 'function';

/** A status's schema, declared bare or per media type (errorResponses declares the latter, D11). */
const jsonSchemaOf = (entry: unknown): unknown =>
  (entry as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.['application/json']
    ?.schema ?? entry;

/**
 * The app's one serializer (D28: stored JSON text written verbatim). With `validate`, each
 * route's serializer first checks the response against that status's schema; a mismatch throws,
 * which Fastify hands to the error handler: the client gets 500 INTERNAL_ERROR and the log names
 * the route, status and problems.
 */
export function serializerCompiler(validate: boolean): FastifySerializerCompiler<unknown> {
  if (!validate) return () => (data) => stringifyWithRawJson(data);
  return ({ schema, method, url, httpStatus }) => {
    if (!isZodSchema(schema)) return (data) => stringifyWithRawJson(data);
    const route = `${method} ${url}`;
    const status = Number(httpStatus);
    return (data) => {
      checkResponse(schema, data, route, status);
      return stringifyWithRawJson(data);
    };
  };
}

/** The responses a request's route declares, by status; undefined for routes that declare none. */
const declaredResponses = (request: FastifyRequest): Record<string, unknown> | undefined =>
  (request.routeOptions?.schema as { response?: Record<string, unknown> } | undefined)?.response;

const routeOf = (request: FastifyRequest): string => `${request.method} ${request.routeOptions.url}`;

/**
 * Statuses any route may answer without declaring them: a body too large (413) or not JSON (415),
 * a failure of the server (500), load shedding and shutdown (503). Every other status a route
 * answers is in its OpenAPI responses, refusals included (401, 403, 429 are listed per route).
 */
const UNDECLARED_ALLOWED = new Set([413, 415, 500, 503]);

/**
 * Throws when a route that declares its responses answers with a status it does not declare (the
 * OpenAPI document would not tell clients about it). Routes that declare none (hidden ones:
 * health, MCP, the refusals of a missing path id) are not checked. Returns the declared responses.
 */
function checkStatus(request: FastifyRequest, status: number): Record<string, unknown> | undefined {
  const responses = declaredResponses(request);
  if (!responses || UNDECLARED_ALLOWED.has(status)) return responses;
  if (status in responses || `${String(status)[0]}xx` in responses) return responses;
  throw new ResponseValidationError(routeOf(request), status, [
    `status ${status} is not among the declared responses (${Object.keys(responses).join(', ')})`,
  ]);
}

/**
 * A preSerialization hook, for bodies the serializer writes: their status must be declared (the
 * serializer of a declared status checks the body; an undeclared one would go out unchecked).
 */
export async function checkSerializedStatus(
  request: FastifyRequest,
  reply: { statusCode: number },
  payload: unknown,
): Promise<unknown> {
  checkStatus(request, reply.statusCode);
  return payload;
}

/**
 * For bodies sent as text, which bypass the serializer (writes, D36; error envelopes, D11): checks
 * that the status is declared and `body`, the value before stringification, against its schema.
 */
export type ResponseCheck = (request: FastifyRequest, statusCode: number, body: unknown) => void;

export const checkSentResponse: ResponseCheck = (request, statusCode, body) => {
  const responses = checkStatus(request, statusCode);
  const schema = jsonSchemaOf(responses?.[statusCode] ?? responses?.[`${String(statusCode)[0]}xx`]);
  if (isZodSchema(schema)) checkResponse(schema, body, routeOf(request), statusCode);
};
