import { Injectable } from '@nestjs/common';
import { OPS, type Principal } from '@coffer/contracts';
import { RpcClient, type CallContext } from '@coffer/bus';

/**
 * The applications a reactor acts as (owned by session-service): the principal of an application of the caller's
 * tenant, without key material. 404 when unknown or of another tenant.
 */
@Injectable()
export class ApplicationDirectory {
  constructor(private readonly rpc: RpcClient) {}

  principalOf(ctx: CallContext, applicationId: string): Promise<Principal> {
    return this.rpc.call<Principal>(OPS.session.applications.principal, { id: applicationId }, ctx);
  }
}
