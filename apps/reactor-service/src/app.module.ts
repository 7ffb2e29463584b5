import { Module } from '@nestjs/common';
import { IdempotentWrites } from '@coffer/idempotency';
import { ReactorJobRepository } from './invoke/async/reactor-job.repository';
import { ReactorJobs } from './invoke/async/reactor-jobs';
import { DbModule } from '@coffer/db';
import { KeyringModule } from '@coffer/crypto/keyring';
import { BusModule, TenantSettingsClient } from '@coffer/bus';
import { AuditTrail, OperationDispatcher, RecordedWrites } from '@coffer/operations';
import { PingHandler } from './health/ping.handler';
import { FormulaRepository } from './formulas/formula.repository';
import { FormulasService } from './formulas/formulas.service';
import { FormulasHandler } from './formulas/formulas.handler';
import { ReactorRepository } from './reactors/reactor.repository';
import { ReactorVault } from './reactors/reactor-vault';
import { ApplicationDirectory } from './reactors/application-directory';
import { ReactorsService } from './reactors/reactors.service';
import { ReactorsHandler } from './reactors/reactors.handler';
import { ReactorSandbox } from './invoke/reactor-sandbox';
import { TenantEgressDefault } from './invoke/tenant-egress-default';
import { TokenServiceClient } from './invoke/token-service.client';
import { InvokeReactorUseCase } from './invoke/invoke-reactor.use-case';
import { ReactorRunner } from './invoke/reactor-runner';
import { ReactReplies } from './invoke/react-replies';
import { JobPruner } from './invoke/async/job-pruner';
import { ProxyRepository } from './proxies/proxy.repository';
import { ProxyVault } from './proxies/proxy-vault';
import { ProxiesService } from './proxies/proxies.service';
import { ProxiesHandler } from './proxies/proxies.handler';
import { ProxyTransforms } from './proxies/transforms/proxy-transforms';
import { TransformWorkers } from './proxies/transforms/transform-workers';
import { ProxyIdempotency } from './proxies/proxy-idempotency';

@Module({
  imports: [DbModule, KeyringModule, BusModule],
  controllers: [PingHandler, FormulasHandler, ReactorsHandler, ProxiesHandler],
  providers: [
    OperationDispatcher,
    JobPruner,
    AuditTrail,
    RecordedWrites,
    IdempotentWrites,
    FormulaRepository,
    FormulasService,
    ReactorRepository,
    ReactorVault,
    ApplicationDirectory,
    ReactorsService,
    ReactorSandbox,
    TokenServiceClient,
    ReactorRunner,
    ReactReplies,
    TenantSettingsClient,
    TenantEgressDefault,
    InvokeReactorUseCase,
    ReactorJobRepository,
    ReactorJobs,
    ProxyRepository,
    ProxyVault,
    ProxiesService,
    ProxyTransforms,
    TransformWorkers,
    ProxyIdempotency,
  ],
})
export class AppModule {}
