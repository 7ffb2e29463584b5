import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ProblemError, RPC_DEADLINE_MS, SUBJECTS, type Principal } from '@coffer/contracts';
import { sha256Hex } from '@coffer/crypto';
import { RpcClient } from '@coffer/messaging';
import { HeaderNames } from './api-key-headers';
import { PrincipalCache } from './principal-cache';
import type { GatewayRequest } from '../http/gateway-request';

/** Authenticates SVC-API-KEY (or an alias) through session-service, with a short-lived cache. 401 otherwise. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly headers = new HeaderNames();

  constructor(
    private readonly rpc: RpcClient,
    private readonly cache: PrincipalCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<GatewayRequest>();
    const key = HeaderNames.first(req.headers, this.headers.apiKey);
    if (!key) throw new ProblemError(401, 'The SVC-API-KEY header is required');
    if (key.length > 512) throw new ProblemError(401, 'The API key is invalid');
    const keyHash = sha256Hex(key);
    const cached = this.cache.get(keyHash);
    if (cached && (cached.expiresAt === undefined || cached.expiresAt > Date.now())) {
      req.principal = cached.principal;
      return true;
    }
    const result = await this.rpc.call<{ principal: Principal | null; expiresAt?: string }>(
      SUBJECTS.session.authenticate,
      { keyHash },
      { traceId: req.traceId },
      RPC_DEADLINE_MS.authenticate,
    );
    if (!result?.principal) throw new ProblemError(401, 'The API key is invalid or expired');
    const expiresAt = result.expiresAt ? Date.parse(result.expiresAt) : undefined;
    this.cache.set(keyHash, { principal: result.principal, expiresAt });
    req.principal = result.principal;
    return true;
  }
}
