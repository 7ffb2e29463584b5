import { OPS } from '@coffer/contracts';
import { rowController } from '../http/row-routes';

/** Reactor formulas, kept by reactor-service. */
export const ReactorFormulasController = rowController('ReactorFormulasController', {
  tags: ['reactor formulas'],
  routes: {
    create: OPS.reactor.formulas.create,
    list: OPS.reactor.formulas.list,
    get: OPS.reactor.formulas.get,
    update: OPS.reactor.formulas.update,
    delete: OPS.reactor.formulas.delete,
  },
});
