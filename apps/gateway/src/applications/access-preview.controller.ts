import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  OPS,
  AccessPreviewRequest,
  AccessPreviewView,
  FieldErrors,
  type AccessPreviewDecision,
  type ApplicationView,
  type Grants,
  type Principal,
} from '@coffer/contracts';
import { PERMISSIONS, RequirePermission, decideTokenAccess, firstMatchingRule, isTokenPermission, validateGrants } from '@coffer/auth';
import { RpcClient } from '@coffer/bus';
import { callContext, type GatewayRequest } from '../http/gateway-request';

const TOKEN_PERMISSIONS = Object.keys(PERMISSIONS).filter(isTokenPermission);

/**
 * The access preview (a Coffer extension, used by the console's rules editor): the decision every token route
 * makes (libs/auth decideTokenAccess), applied to the application as it is stored now and a token in a given
 * container — or to a session this application would authorize, capped by it. Nothing is read or written.
 * Plain decorators, no row of its own: the gateway answers it, reading the application with
 * OPS.session.applications.get (whose row is bound to GET /applications/{id}).
 */
@ApiTags('applications')
@Controller('applications')
export class AccessPreviewController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(':id/access-preview')
  @HttpCode(200)
  @RequirePermission('application:read')
  @ApiOperation({
    summary: 'Preview what an application may do with a token (Coffer extension)',
    description:
      'application:read. For each token permission: allowed or not, and the transform (redact, mask, reveal) the data comes back with, decided ' +
      'exactly as the token routes decide for a token in `container` (and `token_id`). With `session`, the decision for a session this ' +
      'application authorizes with those grants (never more than the application itself). Reads no token.',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'the application id' })
  @ApiBody({ type: AccessPreviewRequest })
  @ApiOkResponse({ type: AccessPreviewView })
  async preview(@Req() req: GatewayRequest, @Param('id') id: string, @Body() body: AccessPreviewRequest): Promise<AccessPreviewView> {
    const app = await this.rpc.call<ApplicationView>(OPS.session.applications.get, { id }, callContext(req));
    const grants: Grants = { permissions: app.permissions ?? [], ...(app.rules?.length ? { rules: app.rules } : {}) };
    const applicationPrincipal: Principal = { tenantId: app.tenant_id, applicationId: app.id, applicationType: app.type, ...grants };
    let subject: Principal = applicationPrincipal;
    if (body.session) {
      const errors = new FieldErrors();
      const authorizerPermissions = grants.rules?.length ? [...new Set(grants.rules.flatMap((r) => r.permissions))] : grants.permissions;
      const sessionGrants = validateGrants('private', body.session.permissions ?? [], body.session.rules ?? [], errors, { session: { authorizerPermissions } });
      errors.throwIfAny();
      subject = {
        tenantId: app.tenant_id,
        applicationId: app.id,
        applicationType: 'private',
        sessionId: 'preview',
        ...sessionGrants,
        authorizer: { applicationId: app.id, ...grants },
      };
    }
    const token = { id: body.token_id ?? '', container: body.container.toLowerCase() };
    const decisions: AccessPreviewDecision[] = TOKEN_PERMISSIONS.map((permission) => {
      const d = decideTokenAccess(subject, permission, token);
      return d.allowed ? { permission, allowed: true, transform: d.transform } : { permission, allowed: false };
    });
    const matched = grants.rules?.length ? firstMatchingRule(grants.rules, token) : undefined;
    return {
      application_id: app.id,
      container: token.container,
      subject: body.session ? 'session' : 'application',
      ...(matched ? { matched_rule: matched } : {}),
      decisions,
    };
  }
}
