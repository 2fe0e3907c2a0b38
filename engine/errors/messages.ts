// The messages of the errors every route can answer, written once: the error handler and the
// error classes answer with them, and the API reference shows them.
export const ERROR_MESSAGES = {
  notFound: 'The requested resource was not found.',
  unauthenticated: 'Unauthenticated.',
  forbidden: 'This action is unauthorized.',
  server: 'Server error occurred.',
  databaseUnavailable: 'The database is not available right now. Retry in a moment.',
  databaseBusy: 'The database is too busy with concurrent changes right now. Retry in a moment.',
  invalidJson: 'The request body is not valid JSON.',
  emptyJson: 'The request body is empty but the content type says JSON.',
  tooLarge: 'The request body is too large.',
  mediaType: 'Unsupported content type: send application/json.',
  contentLength: 'The request body does not match its Content-Length.',
  badUrl: 'The request URL is not valid.',
  timeLimit: (seconds: number) => `The report did not finish within its time limit (${seconds} s). Narrow it with filters, or retry later.`,
  /** `after`: how long to wait, as the rate limit words it ("1 minute"). */
  tooManyRequests: (after: string) => `Too many requests. Retry in ${after}.`,
  methodNotAllowed: (method: string, allowed: readonly string[]) => `The ${method} method is not supported for this route. Supported methods: ${allowed.join(', ')}.`,
} as const;
