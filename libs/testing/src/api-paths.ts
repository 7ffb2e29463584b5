import type { paths } from './generated/openapi';

/** The HTTP methods of the API, as the e2e tests write them. */
export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `/tokens/{id}` → `/tokens/${string}`: a path of the document as a test writes it, parameters filled in. */
type Filled<P extends string> = P extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${string}${Filled<Tail>}` : P;

/** The documented paths that have an operation for `M` (a path or method the document lacks fails type checking). */
type PathsOf<M extends ApiMethod> = {
  [P in keyof paths & string]: paths[P] extends Record<Lowercase<M>, infer Op> ? ([Op] extends [undefined] ? never : P) : never;
}[keyof paths & string];

/** A request target of the document for `M`: the path with its parameters filled in, optionally with a query string. */
export type ApiPath<M extends ApiMethod> = Filled<PathsOf<M>> | `${Filled<PathsOf<M>>}?${string}`;
