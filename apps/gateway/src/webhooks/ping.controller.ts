import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthenticatedOnly } from '@coffer/auth';

/** GET /ping: the node SDK's `webhooks.ping()` — answers once the key authenticated (any key, no permission). */
@ApiTags('webhooks')
@Controller('ping')
export class PingController {
  @Get()
  @HttpCode(204)
  @AuthenticatedOnly()
  @ApiOperation({ summary: 'Check the API key', description: 'Any valid API key; 401 otherwise. No body.' })
  @ApiNoContentResponse({ description: 'the key is valid' })
  ping(): void {
    return undefined;
  }
}
