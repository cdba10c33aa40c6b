import type { z } from 'zod';
import { type ErrorCode, type ErrorDetail, AppError, errorCodes } from './errors.js';
import { unknownKeyIssues } from './unknown-keys.js';

// Validation failures of zod schemas (request parts over REST, tool arguments over MCP), rendered
// as the codes of D12-D13.

const CODED_MESSAGE = /^([A-Z_]+)\|(.*)$/s;

/**
 * zod option that makes a failing check report one of the API's own codes (D12-D13: TOO_MANY_MESSAGES,
 * EMPTY_MESSAGE_ARRAY, ...) instead of the generic INVALID_INPUT. The code travels in the issue
 * message because zod's built-in checks carry no other free field; `toAppError` takes it out.
 */
export function coded(code: ErrorCode, message: string) {
  return { error: () => `${code}|${message}` };
}

export type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

export class RequestValidationError extends Error {
  readonly statusCode = 400;
  constructor(
    readonly httpPart: HttpPart,
    readonly issues: z.core.$ZodIssue[],
    readonly input: unknown,
  ) {
    super('Request validation failed');
  }
}

/**
 * Parses one part of a request (or a tool's arguments, which MCP treats as a body). A body or query
 * string that carries a field its schema does not declare fails too (D82); headers and path
 * parameters are not the client's choice of names.
 */
export function parseRequestPart<T>(
  schema: z.ZodType<T>,
  data: unknown,
  part: HttpPart,
): { value: T; error?: undefined } | { error: RequestValidationError } {
  const result = schema.safeParse(data, { reportInput: true });
  const unknown = part === 'body' || part === 'querystring' ? unknownKeyIssues(schema, data) : [];
  if (result.success && unknown.length === 0) return { value: result.data };
  const issues = result.success ? unknown : [...unknown, ...result.error.issues];
  return { error: new RequestValidationError(part, issues, data) };
}

/** `messages[3].content` from zod's path (D12). */
export function formatPath(path: PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function issueCode(issue: z.core.$ZodIssue, part: HttpPart): { code: ErrorCode; message: string } {
  const match = CODED_MESSAGE.exec(issue.message);
  if (match && match[1]! in errorCodes) return { code: match[1] as ErrorCode, message: match[2]! };
  // An absent field fails as a wrong type, a wrong enum value or no matching union member.
  const missing =
    (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') &&
    (issue as { input?: unknown }).input === undefined;
  if (missing) return { code: 'MISSING_PARAMETER', message: 'Required' };
  return { code: part === 'body' ? 'INVALID_INPUT' : 'INVALID_PARAMETER', message: issue.message };
}

/**
 * A body that may take several forms (D55: an object or a bare array) and has the type of exactly
 * one of them is reported as that form alone would report it. Only at the root: a field's own
 * forms (search `tags`) keep their union error.
 */
function narrowRootUnion(issues: z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.path.length > 0) return [issue];
    const sameType = issue.errors.filter(
      (branch) => !branch.some((inner) => inner.path.length === 0 && inner.code === 'invalid_type'),
    );
    return sameType.length === 1 ? sameType[0]! : [issue];
  });
}

/** Turns a failed validation into the error the client sees (D12, D13). */
export function toAppError(error: RequestValidationError): AppError {
  const { httpPart, input } = error;
  if (httpPart === 'body' && (input === undefined || input === null)) {
    return new AppError('MISSING_PARAMETER', 'A JSON request body is required');
  }
  const issues = httpPart === 'body' ? narrowRootUnion(error.issues) : error.issues;
  const wrongBody = issues.find(
    (issue) => issue.path.length === 0 && (issue.code === 'invalid_type' || issue.code === 'invalid_union'),
  );
  if (httpPart === 'body' && wrongBody) {
    const shapes = wrongBody.code === 'invalid_union' ? 'a JSON object or array' : 'a JSON object';
    return new AppError('INVALID_INPUT', `The request body must be ${shapes}`);
  }
  // A forbidden field (D19, D33) decides the code even when a required one is missing too.
  const ordered = [...issues].sort(
    (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
  );
  const details: ErrorDetail[] = ordered.flatMap((issue) => {
    const { code, message } = issueCode(issue, httpPart);
    if (issue.code === 'unrecognized_keys') {
      // One detail per forbidden field, named by its own path.
      return issue.keys.map((key) => ({
        field: formatPath([...issue.path, key]),
        code,
        message:
          httpPart === 'querystring' ? 'not a parameter of this operation' : 'not a field of this operation',
      }));
    }
    return [{ field: formatPath(issue.path), code, message }];
  });
  const first = details[0] ?? { code: 'INVALID_INPUT' as ErrorCode, field: '', message: 'Invalid request' };
  const where = first.field ? `${first.field}: ` : '';
  // A problem of the whole body (a bare array's length, D55) names no field: no details then.
  const named = details.filter((detail) => detail.field !== '');
  return new AppError(
    first.code as ErrorCode,
    `${where}${first.message}`,
    named.length > 0 ? named : undefined,
  );
}
