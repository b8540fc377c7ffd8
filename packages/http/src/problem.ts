/** RFC 9457 problem details: the one shape every error of the platform takes. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
const TYPE_BASE = 'https://errors.claims-platform.dev/';

export interface FieldError {
  pointer: string;
  message: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  request_id?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

export class HttpProblem extends Error {
  readonly headers: Record<string, string>;
  constructor(
    readonly status: number,
    readonly slug: string,
    readonly title: string,
    readonly detail?: string,
    readonly extensions: { errors?: FieldError[]; [key: string]: unknown } = {},
    headers: Record<string, string> = {},
  ) {
    super(detail ?? title);
    this.name = 'HttpProblem';
    this.headers = headers;
  }

  body(instance?: string, requestId?: string): ProblemBody {
    return {
      type: TYPE_BASE + this.slug,
      title: this.title,
      status: this.status,
      ...(this.detail ? { detail: this.detail } : {}),
      ...(instance ? { instance } : {}),
      ...(requestId ? { request_id: requestId } : {}),
      ...this.extensions,
    };
  }
}

type Extensions = HttpProblem['extensions'];

export const problems = {
  badRequest: (detail: string, errors?: FieldError[]) =>
    new HttpProblem(400, 'validation', 'Request is invalid', detail, errors ? { errors } : {}),
  malformedJson: (detail = 'The body is not valid JSON') => new HttpProblem(400, 'malformed-json', 'Malformed JSON', detail),
  unauthorized: (detail = 'Credentials are missing or do not verify') =>
    new HttpProblem(401, 'unauthorized', 'Unauthorized', detail, {}, { 'WWW-Authenticate': 'Bearer' }),
  forbidden: (detail: string) => new HttpProblem(403, 'forbidden', 'Forbidden', detail),
  notFound: (detail = 'No such resource') => new HttpProblem(404, 'not-found', 'Not found', detail),
  conflict: (detail: string, extensions: Extensions = {}) => new HttpProblem(409, 'conflict', 'Conflict', detail, extensions),
  gone: (detail: string) => new HttpProblem(410, 'gone', 'Gone', detail),
  payloadTooLarge: (detail: string) => new HttpProblem(413, 'payload-too-large', 'Payload too large', detail),
  unsupportedMediaType: (detail: string) => new HttpProblem(415, 'unsupported-media-type', 'Unsupported media type', detail),
  /** 428: the request must carry `header` (named in the body as `header`) for this resource. */
  preconditionRequired: (header: string, detail: string) =>
    new HttpProblem(428, 'precondition-required', 'Precondition required', detail, { header }),
  unprocessable: (detail: string, extensions: Extensions = {}) =>
    new HttpProblem(422, 'unprocessable', 'Unprocessable request', detail, extensions),
  tooManyRequests: (retryAfterSeconds: number) =>
    new HttpProblem(
      429,
      'rate-limited',
      'Too many requests',
      'Rate limit exceeded; retry later',
      {},
      {
        'Retry-After': String(retryAfterSeconds),
      },
    ),
  serviceUnavailable: (detail: string, retryAfterSeconds = 5) =>
    new HttpProblem(503, 'service-unavailable', 'Service unavailable', detail, {}, { 'Retry-After': String(retryAfterSeconds) }),
  badGateway: (detail: string) => new HttpProblem(502, 'bad-gateway', 'Bad gateway', detail),
  requestTimeout: (detail: string) => new HttpProblem(408, 'request-timeout', 'Request timeout', detail),
  gatewayTimeout: (detail: string) => new HttpProblem(504, 'gateway-timeout', 'Gateway timeout', detail),
  internal: () => new HttpProblem(500, 'internal', 'Internal error', 'An unexpected error occurred; it has been logged'),
};
