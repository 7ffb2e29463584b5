import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ProblemDocument, STATUS_TITLES } from '@coffer/contracts';

/** A problem response of one status: `application/problem+json` with the common error body (docs/api-reference.md). */
export function problemResponse(status: number, description: string) {
  return {
    description,
    ...(status === 429 ? { headers: { 'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer' } } } } : {}),
    content: {
      'application/problem+json': {
        schema: { $ref: getSchemaPath(ProblemDocument) },
        example: { title: STATUS_TITLES[status] ?? 'Error', status, detail: description },
      },
    },
  };
}

/**
 * The error statuses a route answers beyond the ones every route shares (those are added to each operation by
 * {@link buildOpenApiDocument}): status → when it happens.
 */
export function ApiProblems(problems: Record<number, string>): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(ProblemDocument),
    ...Object.entries(problems).map(([status, description]) => ApiResponse({ status: Number(status), ...problemResponse(Number(status), description) })),
  );
}
