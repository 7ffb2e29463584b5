import { Controller } from '@nestjs/common';
import { OPS } from '@coffer/contracts';
import { ResourceHandler } from '@coffer/operations';
import { FormulasService } from './formulas.service';

@Controller()
export class FormulasHandler extends ResourceHandler(FormulasService, OPS.reactor.formulas) {}
