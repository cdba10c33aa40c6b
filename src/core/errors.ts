// One table maps every error code to its status and type (D11-D13).
// Code is thrown where the rule lives; the error handler renders it.

export type ErrorType =
  | 'validation_error'
  | 'authentication_error'
  | 'authorization_error'
  | 'not_found'
  | 'conflict'
  | 'rate_limit_exceeded'
  | 'server_error'
  | 'service_unavailable';

export const errorCodes = {
  MISSING_PARAMETER: { status: 400, type: 'validation_error' },
  INVALID_PARAMETER: { status: 400, type: 'validation_error' },
  INVALID_INPUT: { status: 400, type: 'validation_error' },
  MESSAGE_CONTENT_EMPTY: { status: 400, type: 'validation_error' },
  MESSAGE_TOO_LARGE: { status: 400, type: 'validation_error' },
  TOO_MANY_MESSAGES: { status: 400, type: 'validation_error' },
  INVALID_MESSAGE_ARRAY: { status: 400, type: 'validation_error' },
  EMPTY_MESSAGE_ARRAY: { status: 400, type: 'validation_error' },
  INVALID_ACTION: { status: 400, type: 'validation_error' },
  SEARCH_QUERY_TOO_SHORT: { status: 400, type: 'validation_error' },
  UNAUTHORIZED: { status: 401, type: 'authentication_error' },
  IP_NOT_ALLOWED: { status: 403, type: 'authorization_error' },
  // D100: a browser page from a foreign origin, or a foreign Host (DNS rebinding).
  ORIGIN_NOT_ALLOWED: { status: 403, type: 'authorization_error' },
  HOST_NOT_ALLOWED: { status: 403, type: 'authorization_error' },
  DIALOGUE_NOT_FOUND: { status: 404, type: 'not_found' },
  MESSAGE_NOT_FOUND: { status: 404, type: 'not_found' },
  MEMORY_NOT_FOUND: { status: 404, type: 'not_found' },
  SUMMARY_NOT_FOUND: { status: 404, type: 'not_found' },
  PROJECT_NOT_FOUND: { status: 404, type: 'not_found' },
  PARENT_DIALOGUE_NOT_FOUND: { status: 404, type: 'not_found' },
  API_KEY_NOT_FOUND: { status: 404, type: 'not_found' },
  RESOURCE_NOT_FOUND: { status: 404, type: 'not_found' },
  METHOD_NOT_ALLOWED: { status: 405, type: 'validation_error' },
  // D65: the events after the given seq were pruned; `not_found` is the closest category.
  EVENTS_EXPIRED: { status: 410, type: 'not_found' },
  DIALOGUE_IMMUTABLE: { status: 409, type: 'conflict' },
  DIALOGUE_ENDED: { status: 409, type: 'conflict' },
  DIALOGUE_EXPIRED: { status: 409, type: 'conflict' },
  DUPLICATE_ID: { status: 409, type: 'conflict' },
  RESOURCE_CONFLICT: { status: 409, type: 'conflict' },
  // D163: a write into a namespace whose erasure is pending.
  NAMESPACE_ERASING: { status: 409, type: 'conflict' },
  REQUEST_TOO_LARGE: { status: 413, type: 'validation_error' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, type: 'validation_error' },
  RATE_LIMIT_EXCEEDED: { status: 429, type: 'rate_limit_exceeded' },
  PLAN_LIMIT_EXCEEDED: { status: 429, type: 'rate_limit_exceeded' },
  INTERNAL_ERROR: { status: 500, type: 'server_error' },
  DATABASE_ERROR: { status: 500, type: 'server_error' },
  TRANSACTION_FAILED: { status: 500, type: 'server_error' },
  UPSTREAM_ERROR: { status: 502, type: 'server_error' },
  SERVICE_UNAVAILABLE: { status: 503, type: 'service_unavailable' },
  UPSTREAM_TIMEOUT: { status: 504, type: 'server_error' },
} as const satisfies Record<string, { status: number; type: ErrorType }>;

export type ErrorCode = keyof typeof errorCodes;

export interface ErrorDetail {
  field: string;
  code: string;
  message: string;
}

/** A failure the client is told about, with its code from the table above (D11). */
export class AppError extends Error {
  readonly status: number;
  readonly type: ErrorType;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Seconds after which a retry may succeed (D14). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = errorCodes[code].status;
    this.type = errorCodes[code].type;
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

// One factory per message, so that the same failure reads the same wherever it is found.

/** D34, D46: a missing id, another project's id and a dialogue outside the given namespace alike. */
export const dialogueNotFound = (id: string): AppError =>
  new AppError('DIALOGUE_NOT_FOUND', `Dialogue ${id} not found`);

export const messageNotFound = (messageId: string, dialogueId: string): AppError =>
  new AppError('MESSAGE_NOT_FOUND', `Message ${messageId} not found in dialogue ${dialogueId}`);

/** D38, D46: as for dialogues, a foreign or out-of-namespace memory is simply not found. */
export const memoryNotFound = (id: string): AppError =>
  new AppError('MEMORY_NOT_FOUND', `Memory ${id} not found`);

/** D56: as for memories, a summary of another project or of another namespace is simply not found. */
export const summaryNotFound = (id: string): AppError =>
  new AppError('SUMMARY_NOT_FOUND', `Summary ${id} not found`);

export const projectNotFound = (id: string): AppError =>
  new AppError('PROJECT_NOT_FOUND', `Project ${id} not found`);

/** D65: reading from before the oldest kept event; `after=0` reads from the oldest kept. */
export const eventsExpired = (after: number, oldestSeq: number): AppError =>
  new AppError(
    'EVENTS_EXPIRED',
    `Events after seq ${after} have been pruned; the oldest kept seq is ${oldestSeq} (pass after=0 to read from it)`,
    [{ field: 'after', code: 'EVENTS_EXPIRED', message: `the oldest kept seq is ${oldestSeq}` }],
  );

/** D67: a foreign endpoint id answers like a missing one (D46). */
export const webhookNotFound = (id: string): AppError =>
  new AppError('RESOURCE_NOT_FOUND', `Webhook endpoint ${id} not found`);

/** D69: the URL's scheme or address is refused. */
export const webhookUrlRefused = (reason: string): AppError =>
  new AppError('INVALID_PARAMETER', `The webhook URL is refused: it ${reason}`, [
    { field: 'url', code: 'INVALID_PARAMETER', message: reason },
  ]);

/** D69: a project has at most 20 endpoints. */
export const tooManyWebhooks = (max: number): AppError =>
  new AppError('RESOURCE_CONFLICT', `A project has at most ${max} webhook endpoints; delete one first`);
