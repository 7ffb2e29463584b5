import { type CanActivate, type ExecutionContext, SetMetadata, UseGuards, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProblemError } from '@coffer/contracts';
import type { GatewayRequest } from './gateway-request';

const CONTENT_TYPES = 'coffer:content-types';

interface ContentTypeRule {
  types: readonly string[];
  message: string;
}

/**
 * The media types a route takes (Fastify parses application/json on every route): any other is a 415. A guard, so
 * the 415 comes after authentication and the route's permission and before the body is validated (a pipe).
 */
export function AcceptsContentType(types: readonly string[], message: string): MethodDecorator {
  return applyDecorators(SetMetadata(CONTENT_TYPES, { types, message } satisfies ContentTypeRule), UseGuards(ContentTypeGuard));
}

export class ContentTypeGuard implements CanActivate {
  private readonly reflector = new Reflector();

  canActivate(context: ExecutionContext): boolean {
    const rule = this.reflector.get<ContentTypeRule | undefined>(CONTENT_TYPES, context.getHandler());
    if (!rule) return true;
    const header = context.switchToHttp().getRequest<GatewayRequest>().headers['content-type'];
    const type = header?.split(';')[0].trim().toLowerCase();
    if (type === undefined || !rule.types.includes(type)) throw new ProblemError(415, rule.message);
    return true;
  }
}
