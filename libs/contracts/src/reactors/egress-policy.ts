import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, Matches, ValidateNested } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';

/**
 * The hosts a reactor's code may reach with `fetch` (`egress` on a reactor). Optional: a reactor without it gets its
 * tenant's default (`settings.reactor_egress`: `allow_public`, as before, or `deny_unlisted`). Entries are exact host
 * names or IP literals (`api.stripe.com`, `203.0.113.7`, `[2001:db8::1]`) or `*.` suffix patterns (`*.example.com`:
 * any name under example.com, not example.com itself); no scheme, port or path. A listed host still has to be a
 * public address.
 */
export const EGRESS_LIMITS = { maxHosts: 50 } as const;

/** Mirrors `HOST_PATTERN` of @coffer/egress (kept here so contracts stay free of runtime libraries). */
export const EGRESS_HOST_PATTERN =
  /^(\*\.)?(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[[0-9a-f:.]{2,45}\]$/;

export class ReactorEgressInput {
  @ApiProperty({
    type: [String],
    maxItems: EGRESS_LIMITS.maxHosts,
    example: ['api.stripe.com', '*.example.com'],
    description: 'hosts the code may reach: exact names, IP literals or *.domain patterns (no scheme, port or path)',
  })
  @IsArray({ message: 'must be an array of host names' })
  @ArrayMaxSize(EGRESS_LIMITS.maxHosts, { message: `must list at most ${EGRESS_LIMITS.maxHosts} hosts` })
  @Matches(EGRESS_HOST_PATTERN, {
    each: true,
    message: 'must list lower-case host names, IP literals or *.domain patterns (no scheme, port or path)',
  })
  allow!: string[];
}

export class ReactorEgressView {
  @ApiProperty({ type: [String], example: ['api.stripe.com'] })
  allow!: string[];
}

/** What a tenant's reactors without an `egress` list may reach. */
export const REACTOR_EGRESS_DEFAULTS = ['allow_public', 'deny_unlisted'] as const;
export type ReactorEgressDefault = (typeof REACTOR_EGRESS_DEFAULTS)[number];

/** The effective rule for one invocation: the reactor's list if it has one, else the tenant's default. */
export interface EffectiveEgressRule {
  /** null: no list (public internet when `unlisted` is 'allow'). */
  allow: string[] | null;
  unlisted: 'allow' | 'deny';
}

export function effectiveEgressRule(reactorAllow: readonly string[] | null | undefined, tenantDefault: ReactorEgressDefault | undefined): EffectiveEgressRule {
  if (reactorAllow) return { allow: [...reactorAllow], unlisted: 'deny' };
  return { allow: null, unlisted: tenantDefault === 'deny_unlisted' ? 'deny' : 'allow' };
}

/**
 * The validation of an optional `egress` member (an object with an allow list), for a class that documents it on its
 * own: the same as the stacked `@IsOptional() @IsObject(…) @ValidateNested() @Type(() => ReactorEgressInput)`.
 */
export function EgressValidation(): PropertyDecorator {
  // applied bottom-up, as stacked decorators are
  const decorators: PropertyDecorator[] = [
    Type(() => ReactorEgressInput),
    ValidateNested(),
    IsObject({ message: 'must be an object with an allow list' }),
    IsOptional(),
  ];
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

/** The optional `egress` member of reactor requests (formula and code reactors, create, replace and patch). */
export function EgressField(): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    ApiPropertyOptional({
      type: () => ReactorEgressInput,
      nullable: true,
      description: 'the hosts its code may reach; absent or null: the tenant default (settings.reactor_egress)',
    }),
    IsOptional(),
    IsObject({ message: 'must be an object with an allow list' }),
    ValidateNested(),
    Type(() => ReactorEgressInput),
  ];
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}
