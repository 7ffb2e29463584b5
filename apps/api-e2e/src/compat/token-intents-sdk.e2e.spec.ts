/**
 * Token intents through the official SDKs, unchanged (docs/compatibility.md, docs/token-intents.md): node-sdk 5.7.0's
 * `tokenIntents` client and `tokens.create({ tokenIntentId })`, and basis-theory-js 4.30.2's `tokenIntents`.
 */
import { BasisTheory, type BasisTheoryClient } from '@basis-theory/node-sdk';
import { VISA, createTenant, type TestTenant } from '@coffer/testing';
import { btJs, nodeSdk } from './support';

jest.setTimeout(60_000);

const CARD = { number: VISA, expiration_month: 12, expiration_year: 2030, cvc: '123' };

describe('token intents through the SDKs', () => {
  let tenant: TestTenant;
  let frontendKey: string;
  let frontend: BasisTheoryClient;
  let backend: BasisTheoryClient;
  let backendId: string;

  beforeAll(async () => {
    tenant = await createTenant('token-intents-sdk');
    const mgmt = nodeSdk(tenant.managementKey);
    const pub = await mgmt.applications.create({ name: 'Frontend', type: 'public', permissions: ['token-intent:create'] });
    frontendKey = pub.key as string;
    frontend = nodeSdk(frontendKey);
    const priv = await mgmt.applications.create({
      name: 'Backend',
      type: 'private',
      permissions: ['token-intent:read', 'token-intent:delete', 'token:create', 'token:read', 'token:use'],
    });
    backendId = priv.id as string;
    backend = nodeSdk(priv.key as string);
  });

  it('node-sdk: tokenIntents.create by a public key, get and delete by a private key; parsed camelCase, dates as Date', async () => {
    const created = await frontend.tokenIntents.create({ type: 'card', data: CARD });
    expect(created).toMatchObject({
      type: 'card',
      tenantId: tenant.tenantId,
      card: { bin: '42424242', last4: '4242', expirationMonth: 12, expirationYear: 2030, brand: 'visa' },
    });
    expect(created.fingerprint).toEqual(expect.any(String));
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(created.expiresAt).toBeInstanceOf(Date);
    expect((created.expiresAt as Date).getTime() - (created.createdAt as Date).getTime()).toBe(24 * 60 * 60 * 1000);
    expect(JSON.stringify(created)).not.toContain(VISA);

    const got = await backend.tokenIntents.get(created.id as string);
    expect(got).toMatchObject({ id: created.id, type: 'card', fingerprint: created.fingerprint, card: created.card });
    expect(got.createdAt).toEqual(created.createdAt);
    expect(JSON.stringify(got)).not.toContain(VISA);

    await backend.tokenIntents.delete(created.id as string);
    await expect(backend.tokenIntents.get(created.id as string)).rejects.toBeInstanceOf(BasisTheory.NotFoundError);
    await expect(backend.tokenIntents.delete(created.id as string)).rejects.toBeInstanceOf(BasisTheory.NotFoundError);
  });

  it('node-sdk: tokens.create({ tokenIntentId }) makes the token once; the public key is refused elsewhere', async () => {
    const intent = await frontend.tokenIntents.create({ type: 'card', data: CARD });
    await expect(frontend.tokenIntents.get(intent.id as string)).rejects.toBeInstanceOf(BasisTheory.ForbiddenError);
    await expect(frontend.tokens.create({ tokenIntentId: intent.id as string })).rejects.toBeInstanceOf(BasisTheory.ForbiddenError);

    const token = await backend.tokens.create({ tokenIntentId: intent.id as string, metadata: { source: 'intent' } });
    expect(token).toMatchObject({ type: 'card', fingerprint: intent.fingerprint, metadata: { source: 'intent' }, createdBy: backendId });
    expect(token.data).toEqual({ number: 'XXXXXXXXXXXX4242', expiration_month: 12, expiration_year: 2030 });
    expect((await backend.tokens.get(token.id as string)).data).toEqual(CARD);

    // a second conversion: the error class the SDK declares for a create's conflict
    await expect(backend.tokens.create({ tokenIntentId: intent.id as string })).rejects.toBeInstanceOf(BasisTheory.ConflictError);
    await expect(backend.tokenIntents.get(intent.id as string)).rejects.toBeInstanceOf(BasisTheory.NotFoundError);
  });

  it('node-sdk: a bad intent is a BadRequestError naming the field', async () => {
    const err = await frontend.tokenIntents.create({ type: 'card', data: { number: '4242424242424241' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BasisTheory.BadRequestError);
    expect(((err as BasisTheory.BadRequestError).body as { errors: Record<string, string[]> }).errors).toHaveProperty(['data.number']);
  });

  it('basis-theory-js: tokenIntents.create and tokenIntents.delete', async () => {
    const bt = await btJs(frontendKey);
    const created = await bt.tokenIntents.create({ type: 'card', data: CARD });
    expect(created).toMatchObject({ type: 'card', tenantId: tenant.tenantId, card: { bin: '42424242', last4: '4242', expirationMonth: 12, brand: 'visa' } });
    expect(JSON.stringify(created)).not.toContain(VISA);
    // delete is a private key's act
    await expect(bt.tokenIntents.delete(created.id)).rejects.toMatchObject({ status: 403 });
    const backendKey = (await tenant.app('private', { permissions: ['token-intent:delete', 'token-intent:read'] })).key;
    const priv = await btJs(backendKey);
    await priv.tokenIntents.delete(created.id);
    await expect(backend.tokenIntents.get(created.id)).rejects.toBeInstanceOf(BasisTheory.NotFoundError);
  });
});
