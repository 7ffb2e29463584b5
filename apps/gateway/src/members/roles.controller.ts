import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ProblemError, RoleView } from '@coffer/contracts';
import { AuthenticatedOnly, roleCatalog } from '@coffer/auth';
import type { GatewayRequest } from '../http/gateway-request';

/** The member roles and what each may do (docs/members.md, "Roles"): a table of the code, no bus call. */
@ApiTags('members')
@Controller('roles')
export class RolesController {
  @Get()
  @AuthenticatedOnly()
  @ApiOperation({ summary: 'List member roles', description: 'Any application key (a session key: 403). Each role with its permissions.' })
  @ApiOkResponse({ type: [RoleView] })
  list(@Req() req: GatewayRequest): RoleView[] {
    // as GET /permissions: what a browser's session key may do is fixed by whoever authorized it, not its business
    if (req.principal?.sessionId) throw new ProblemError(403, 'The API key does not grant access to this operation');
    return roleCatalog();
  }
}
