import { Injectable } from '@nestjs/common';
import { FieldErrors, badRequest, type Principal } from '@coffer/contracts';
import { PrismaService } from '@coffer/db';
import { AuditRepository } from '../../audit/audit.repository';
import { CreateTokenUseCase, type PreparedToken } from '../create/create-token.use-case';

export const MAX_TOKENS_PER_CALL = 100;

type Slot = { path: string; prepared: PreparedToken; asId: boolean };

/**
 * POST /tokenize (conventions §5): walks any JSON. An object with `type` and `data` is a token request and becomes
 * the created token; any other primitive becomes a `token` of that value and is replaced by its id; other objects
 * and arrays are walked. All-or-nothing: everything is validated first, then written in one transaction.
 */
@Injectable()
export class TokenizeUseCase {
  constructor(
    private readonly create: CreateTokenUseCase,
    private readonly prisma: PrismaService,
    private readonly audit: AuditRepository,
  ) {}

  async execute(principal: Principal, traceId: string, payload: unknown): Promise<unknown> {
    if (payload === undefined) throw badRequest('The request body is required');
    const errors = new FieldErrors();
    const slots: Slot[] = [];
    const shape = this.plan(principal, payload, '', slots, errors);
    if (slots.length > MAX_TOKENS_PER_CALL)
      throw badRequest(`At most ${MAX_TOKENS_PER_CALL} tokens may be created in one call`);
    errors.throwIfAny();

    const results = await this.prisma.$transaction(
      async (tx) => {
        const out: unknown[] = [];
        for (const slot of slots) {
          const { view } = await this.create.write(principal, traceId, slot.prepared, tx);
          out.push(slot.asId ? view.id : view);
        }
        return out;
      },
      { timeout: 30_000 },
    );
    await this.audit.record(
      principal.tenantId,
      slots.map((_, i) => ({
        actorApplicationId: principal.applicationId,
        operation: 'create' as const,
        entityType: 'token' as const,
        entityId: String(typeof results[i] === 'string' ? results[i] : (results[i] as { id: string }).id),
        traceId,
      })),
    );
    let next = 0;
    return shape(() => results[next++]);
  }

  /** Returns a function that rebuilds the payload with results in walk order. */
  private plan(principal: Principal, value: unknown, path: string, slots: Slot[], errors: FieldErrors): (take: () => unknown) => unknown {
    if (value === null) return () => null;
    if (typeof value !== 'object') {
      const prepared = this.create.prepare(principal, { type: 'token', data: value }, errors, path);
      if (prepared) slots.push({ path, prepared, asId: true });
      return (take) => (prepared ? take() : value);
    }
    if (Array.isArray(value)) {
      const parts = value.map((v, i) => this.plan(principal, v, `${path}[${i}]`, slots, errors));
      return (take) => parts.map((p) => p(take));
    }
    const obj = value as Record<string, unknown>;
    if ('type' in obj && 'data' in obj) {
      const prepared = this.create.prepare(principal, obj, errors, path);
      if (prepared) slots.push({ path, prepared, asId: false });
      return (take) => (prepared ? take() : obj);
    }
    const entries = Object.entries(obj).map(([k, v]) => [k, this.plan(principal, v, path ? `${path}.${k}` : k, slots, errors)] as const);
    return (take) => Object.fromEntries(entries.map(([k, p]) => [k, p(take)]));
  }
}
