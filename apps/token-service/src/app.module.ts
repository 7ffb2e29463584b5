import { Module } from '@nestjs/common';
import { IdempotentWrites } from '@coffer/idempotency';
import { DbModule } from '@coffer/db';
import { KeyringModule } from '@coffer/crypto/keyring';
import { BusModule, TenantSettingsClient } from '@coffer/bus';
import { OperationDispatcher } from '@coffer/operations';
import { AuditRepository } from './audit/audit.repository';
import { AuditChainKeeper } from './audit/audit-chain-keeper';
import { RefusalsHandler } from './audit/refusals.handler';
import { TokenRepository } from './tokens/token.repository';
import { TokenVault } from './tokens/token-vault';
import { CreateTokenUseCase } from './tokens/create/create-token.use-case';
import { ReadTokensUseCase } from './tokens/read/read-tokens.use-case';
import { TokenReads } from './tokens/read/token-reads';
import { TokenInserts } from './tokens/create/token-inserts';
import { UpdateTokenUseCase } from './tokens/update/update-token.use-case';
import { DeleteTokenUseCase } from './tokens/delete-token.use-case';
import { ExpirySweeper } from './tokens/expiry-sweeper';
import { TokensHandler } from './tokens/tokens.handler';
import { TokenizeUseCase } from './tokens/tokenize/tokenize.use-case';
import { DetokenizeUseCase } from './tokens/detokenize/detokenize.use-case';
import { SearchTokensUseCase } from './tokens/search/search-tokens.use-case';
import { ListLogsUseCase } from './audit/logs.use-case';
import { TokensV2Handler } from './tokens/v2/tokens-v2.handler';
import { CursorTokensUseCase } from './tokens/v2/cursor-tokens.use-case';
import { TokenCursors } from './tokens/v2/token-cursor';
import { ReencryptionGauge } from './keys/reencryption-gauge';
import { KeyStatusHandler, ReencryptionProgressReader } from './keys/key-status.handler';
import { TokenIntentRepository } from './token-intents/token-intent.repository';
import { TokenIntentsUseCase } from './token-intents/token-intents.use-case';
import { TokenIntentsHandler } from './token-intents/token-intents.handler';
import { ConvertTokenIntentUseCase } from './token-intents/convert-token-intent.use-case';

@Module({
  imports: [DbModule, KeyringModule, BusModule],
  controllers: [TokensHandler, TokensV2Handler, TokenIntentsHandler, RefusalsHandler, KeyStatusHandler],
  providers: [
    OperationDispatcher,
    IdempotentWrites,
    AuditRepository,
    AuditChainKeeper,
    TenantSettingsClient,
    TokenRepository,
    TokenVault,
    CreateTokenUseCase,
    ReadTokensUseCase,
    TokenReads,
    TokenInserts,
    UpdateTokenUseCase,
    DeleteTokenUseCase,
    ExpirySweeper,
    TokenizeUseCase,
    DetokenizeUseCase,
    SearchTokensUseCase,
    ListLogsUseCase,
    CursorTokensUseCase,
    TokenCursors,
    ReencryptionGauge,
    ReencryptionProgressReader,
    TokenIntentRepository,
    TokenIntentsUseCase,
    ConvertTokenIntentUseCase,
  ],
})
export class AppModule {}
