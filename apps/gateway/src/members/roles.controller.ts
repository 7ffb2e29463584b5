import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RoleView } from '@coffer/contracts';
import { AuthenticatedOnly, roleCatalog } from '@coffer/auth';

/** The member roles and what each may do (docs/members.md, "Roles"): a table of the code, no bus call. */
@ApiTags('members')
@Controller('roles')
export class RolesController {
  @Get()
  @AuthenticatedOnly()
  @ApiOperation({ summary: 'List member roles', description: 'Any key. Each role with its permissions.' })
  @ApiOkResponse({ type: [RoleView] })
  list(): RoleView[] {
    return roleCatalog();
  }
}
