import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { APPLICATION_TYPES, PermissionView as PermissionContract, ProblemError } from '@coffer/contracts';
import { AuthenticatedOnly, isApplicationType, permissionCatalog, type PermissionView } from '@coffer/auth';
import type { GatewayRequest } from '../http/gateway-request';

/** The permissions each application type may hold: the same for every tenant, answered by the gateway itself. */
@ApiTags('applications')
@Controller('permissions')
export class PermissionsController {
  @Get()
  @AuthenticatedOnly()
  @ApiOperation({
    summary: 'The permission catalog',
    description: 'Any application key (a session key: 403). The permissions each application type may hold; the same for every tenant.',
  })
  @ApiQuery({ name: 'application_type', required: false, enum: APPLICATION_TYPES, description: 'only the permissions this application type may hold' })
  @ApiOkResponse({ type: [PermissionContract] })
  list(@Req() req: GatewayRequest, @Query('application_type') applicationType: unknown): PermissionView[] {
    if (req.principal?.sessionId) throw new ProblemError(403, 'The API key does not grant access to this operation');
    if (applicationType === undefined) return permissionCatalog();
    if (!isApplicationType(applicationType))
      throw new ProblemError(400, 'The query is invalid', { application_type: ['must be one of public, private, management'] });
    return permissionCatalog(applicationType);
  }
}
