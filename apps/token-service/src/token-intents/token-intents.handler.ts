import { Controller } from '@nestjs/common';
import { OPS } from '@coffer/contracts';
import { ResourceHandler } from '@coffer/operations';
import { TokenIntentsUseCase } from './token-intents.use-case';

/** The token intent operations (OPS.token.intents): the dispatcher has checked the caller and the JSON limits. */
@Controller()
export class TokenIntentsHandler extends ResourceHandler(TokenIntentsUseCase, OPS.token.intents) {}
