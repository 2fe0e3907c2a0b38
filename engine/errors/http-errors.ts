// Errors a handler throws on purpose; the error handler turns each into its JSON body.
import { ERROR_MESSAGES } from './messages.ts';

export type FieldErrors = Record<string, string[]>;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  body(): Record<string, unknown> {
    return { message: this.message };
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string = ERROR_MESSAGES.notFound) {
    super(404, message);
  }
}

export class UnauthenticatedError extends HttpError {
  constructor() {
    super(401, ERROR_MESSAGES.unauthenticated);
  }
}

export class ForbiddenError extends HttpError {
  constructor() {
    super(403, ERROR_MESSAGES.forbidden);
  }
}

/** A malformed request: unknown filter, sort or include, or a body that is not an object. */
export class BadRequestError extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

/** A workflow action the record's state does not allow: 422 {message}, as the original's guards. */
export class ActionRefusedError extends HttpError {
  constructor(message: string) {
    super(422, message);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

/** A 422 names at most this many fields: a body with 40,000 bad entries gets a short answer. */
export const MAX_FIELD_ERRORS = 50;

/** 422 in the Laravel shape: the first message (and how many more) plus the messages per field (the first 50 fields). */
export class ValidationError extends HttpError {
  readonly errors: FieldErrors;
  /** errors: by field; entry: for a record written with its owner, its place in the owner's list. */
  constructor(
    errors: FieldErrors,
    readonly entry?: number,
  ) {
    super(422, summarize(errors));
    const keys = Object.keys(errors);
    this.errors = keys.length <= MAX_FIELD_ERRORS ? errors : Object.fromEntries(keys.slice(0, MAX_FIELD_ERRORS).map((key) => [key, errors[key]!]));
  }

  override body(): Record<string, unknown> {
    return { message: this.message, errors: this.errors };
  }
}

function summarize(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  const first = messages[0] ?? 'The given data was invalid.';
  const more = messages.length - 1;
  if (more <= 0) return first;
  return `${first} (and ${more} more ${more === 1 ? 'error' : 'errors'})`;
}

/** A read that reached its time limit (a grouped total over too many rows): 503, to be narrowed or retried later. */
export class TimeLimitError extends HttpError {
  constructor(limitMs: number) {
    super(503, ERROR_MESSAGES.timeLimit(limitMs / 1000), { 'retry-after': '30' });
  }
}
