import { Test } from '@nestjs/testing';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { EventBus, RpcClient } from '@coffer/bus';
import { createLogger } from '@coffer/observability';
import { AppModule } from '../app.module';
import { configureFastify } from '../http/fastify-setup';

export interface RegisteredRoute {
  method: string;
  /** OpenAPI form: `/tokens/{id}` */
  path: string;
}

/**
 * The gateway as main.ts builds it, without NATS: the bus clients are replaced by stand-ins that are never called
 * (nothing is requested), so the document and the router can be read in a unit test or by `npm run openapi`.
 * Every route Fastify registers (Nest's and the health routes) is recorded as it is added.
 */
export async function gatewayWithoutServices(): Promise<{ app: NestFastifyApplication; routes: RegisteredRoute[] }> {
  const unused = () => {
    throw new Error('the bus is not available while the API reference is built');
  };
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(EventBus)
    .useValue({ subscribe: async () => undefined, publish: unused, ping: unused, onModuleDestroy: async () => undefined })
    .overrideProvider(RpcClient)
    .useValue({ call: unused, onModuleDestroy: async () => undefined })
    .compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true } }), {
    logger: false,
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  const routes: RegisteredRoute[] = [];
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      routes.push({ method: method.toLowerCase(), path: route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/\*$/, '/{path}') });
  });
  configureFastify(fastify, createLogger('gateway'), {}, () => false);
  return { app, routes };
}
