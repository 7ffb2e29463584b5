/** An RFC 9457 problem document as the API sends it (application/problem+json). */
export interface Problem {
  title: string;
  status: number;
  detail?: string;
  errors?: Record<string, string[]>;
  /** a reactor test run's console output (`capture_logs`), when the formula failed */
  logs?: string[];
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title);
  }
}

/** Any reply body to a problem: a problem document as is, anything else described by its status alone. */
export function toProblem(status: number, body: unknown): Problem {
  if (typeof body === 'object' && body !== null && typeof (body as Problem).title === 'string') {
    const p = body as Problem;
    const errors = p.errors && typeof p.errors === 'object' ? p.errors : undefined;
    const logs = Array.isArray(p.logs) ? p.logs.filter((l): l is string => typeof l === 'string') : undefined;
    return {
      title: p.title,
      status: typeof p.status === 'number' ? p.status : status,
      detail: typeof p.detail === 'string' ? p.detail : undefined,
      errors,
      ...(logs ? { logs } : {}),
    };
  }
  if (status === 0) return { title: 'Network error', status: 0, detail: 'The gateway could not be reached' };
  return { title: `Request failed (${status})`, status };
}

/** Field errors as lines ("name: is required"), in the order the API gave them. */
export function fieldErrorLines(problem: Problem): string[] {
  return Object.entries(problem.errors ?? {}).flatMap(([field, messages]) =>
    (Array.isArray(messages) ? messages : [String(messages)]).map((m) => `${field}: ${m}`),
  );
}

/** A problem's messages for one field and its members (`configuration.API_KEY`, `request_transforms[1].type`). */
export function errorsFor(problem: Problem | null, field: string): string[] {
  if (!problem?.errors) return [];
  return Object.entries(problem.errors).flatMap(([name, messages]) => {
    const list = Array.isArray(messages) ? messages : [String(messages)];
    if (name === field) return list;
    if (name.startsWith(`${field}.`) || name.startsWith(`${field}[`)) return list.map((m) => `${name.slice(field.length).replace(/^\./, '')}: ${m}`);
    return [];
  });
}
