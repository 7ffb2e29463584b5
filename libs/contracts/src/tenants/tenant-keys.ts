import { ApiProperty, ApiPropertyOptional } from '../openapi/property-docs';

/** Where a data key's key-encryption key lives (docs/keys.md): KEY_ENCRYPTION_KEYS, or an HSM through PKCS#11. */
export const KEK_PROVIDERS = ['env', 'pkcs11'] as const;
export type KekProvider = (typeof KEK_PROVIDERS)[number];

/** One version of the tenant's data key: when it was made and whether new values are sealed under it. Never the key. */
export class TenantKeyVersionView {
  @ApiProperty({ format: 'uuid', description: 'the key id every sealed value records' })
  id!: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 2, description: "1 for the tenant's first data key, counting up with each rotation" })
  version!: number;

  @ApiProperty({ description: 'new values are sealed under this version (one version is active)', example: true })
  active!: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ enum: KEK_PROVIDERS, description: 'the key-encryption key it is wrapped under: env (KEY_ENCRYPTION_KEYS) or pkcs11 (an HSM)' })
  kek_provider!: KekProvider;
}

/** How far a running re-encryption job has moved one kind of the tenant's sealed values. */
export class ReencryptionKindProgressView {
  @ApiProperty({
    example: 'tokens',
    description:
      'the kind of sealed value: tokens, token_intents, reactor_configurations, proxy_secrets, job_arguments, job_outcomes, webhook_bodies, webhook_secrets, idempotency_replies',
  })
  kind!: string;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1200, description: 'values of this kind the job has to move' })
  rows_total!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 450, description: 'values moved so far' })
  rows_done!: number;
}

/** A re-encryption job (the operator's `admin keys reencrypt`) running for this tenant. */
export class ReencryptionProgressView {
  @ApiProperty({ format: 'date-time', description: 'when the job started' })
  started_at!: string;

  @ApiProperty({ type: () => [ReencryptionKindProgressView], description: 'per kind of sealed value; kinds the job has not reached yet are absent' })
  kinds!: ReencryptionKindProgressView[];
}

/** GET /tenants/self/keys: the tenant's data key versions, oldest first, and a running re-encryption job. */
export class TenantKeysView {
  @ApiProperty({ type: () => [TenantKeyVersionView], description: 'every data key version of the tenant, oldest first' })
  data!: TenantKeyVersionView[];

  @ApiPropertyOptional({
    type: () => ReencryptionProgressView,
    description: 'present while a re-encryption job runs for this tenant (or for every tenant), absent otherwise',
  })
  reencryption?: ReencryptionProgressView;
}
