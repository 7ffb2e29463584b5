import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';

/** RFC 9457 problem document (docs/api-reference.md). Crosses the bus unchanged and leaves the gateway with its status. */
export interface Problem {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  errors?: Record<string, string[]>;
}

/**
 * The problem document as the API reference describes it (every error response, `application/problem+json`).
 * `errors` maps a field path (`data.number`, `containers[0]`, `request_parameters[1].name`) to its messages.
 */
export class ProblemDocument implements Problem {
  @ApiPropertyOptional({ description: 'a URI naming the kind of problem (absent: about:blank)' })
  type?: string;

  @ApiProperty({ description: 'the HTTP status text', example: 'Bad Request' })
  title!: string;

  @ApiProperty({ description: 'the HTTP status code', example: 400, type: 'integer' })
  status!: number;

  @ApiPropertyOptional({ description: 'what went wrong, for people; never quotes token data, keys or configuration', example: 'The request is invalid' })
  detail?: string;

  @ApiPropertyOptional()
  instance?: string;

  @ApiPropertyOptional({
    description: 'validation failures: every offending field path with its messages',
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { 'data.number': ['must pass the Luhn check'] },
  })
  errors?: Record<string, string[]>;
}

export const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The one error type services and the gateway throw for an expected failure. */
export class ProblemError extends Error {
  readonly problem: Problem;
  /** seconds, for 429 */
  retryAfter?: number;

  constructor(status: number, detail?: string, errors?: Record<string, string[]>, title?: string) {
    super(detail ?? title ?? STATUS_TITLES[status] ?? 'Error');
    this.problem = { title: title ?? STATUS_TITLES[status] ?? 'Error', status };
    if (detail !== undefined) this.problem.detail = detail;
    if (errors && Object.keys(errors).length) this.problem.errors = errors;
  }

  get status(): number {
    return this.problem.status;
  }

  static fromProblem(problem: Problem): ProblemError {
    const err = new ProblemError(problem.status, problem.detail, problem.errors, problem.title);
    Object.assign(err.problem, problem);
    return err;
  }
}

export const badRequest = (detail: string, errors?: Record<string, string[]>) => new ProblemError(400, detail, errors);
export const notFound = (what = 'resource') => new ProblemError(404, `The ${what} was not found`);
export const forbidden = (detail = 'The API key does not grant access to this operation') => new ProblemError(403, detail);
export const conflict = (detail: string) => new ProblemError(409, detail);

/** Accumulates field errors so a validation failure reports every offending field at once. */
export class FieldErrors {
  /** no prototype: a path is the client's key (`constructor`, `__proto__`), never a member of Object.prototype */
  private readonly map: Record<string, string[]> = Object.create(null);

  add(path: string, message: string): this {
    (this.map[path] ??= []).push(message);
    return this;
  }

  merge(other: Record<string, string[]>): this {
    for (const [path, messages] of Object.entries(other)) for (const m of messages) this.add(path, m);
    return this;
  }

  get empty(): boolean {
    return Object.keys(this.map).length === 0;
  }

  toRecord(): Record<string, string[]> {
    return this.map;
  }

  throwIfAny(detail = 'The request is invalid'): void {
    if (!this.empty) throw badRequest(detail, this.map);
  }
}

export function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as Problem).status === 'number' && typeof (value as Problem).title === 'string';
}
