import { TOKENIZE_RENDERED, type Principal, type TokenView, type Transform } from '@coffer/contracts';
import type { PrismaService } from '@coffer/db';
import { withActingContext } from '@coffer/operations';
import type { AuditLog } from '@coffer/db';
import type { CreateTokenUseCase } from '../create/create-token.use-case';
import type { TokenVault } from '../token-vault';
import type { TokenIntentsUseCase } from '../../token-intents/token-intents.use-case';
import { TokenizeUseCase } from './tokenize.use-case';

const principal: Principal = { tenantId: 't', applicationId: 'app', applicationType: 'private', permissions: ['token:create', 'token:read', 'token:use'] };
/** `fn` run as the operation of `principal`, as the operation dispatcher runs a handler */
const acting = <T>(fn: () => T): T => withActingContext({ principal, traceId: 'trace' }, fn);
const view = (id: string, data?: unknown): TokenView => ({
  id,
  tenant_id: 't',
  type: 'token',
  containers: ['/general/high/'],
  ...(data === undefined ? {} : { data }),
});

/** `a` is created (write reply: mask), `b` deduplicated (the writer's read level: reveal), `c` a primitive (an id). */
function setup() {
  const written: Record<string, { view: TokenView; created: boolean; transform: Transform }> = {
    a: { view: view('ta', 'XXb'), created: true, transform: 'mask' },
    b: { view: view('tb', 'dup-secret'), created: false, transform: 'reveal' },
    c: { view: view('tc'), created: true, transform: 'mask' },
  };
  const create = {
    // `b` asks for deduplication: the call is written the transactional way, token by token (`write`)
    prepare: jest.fn((_p: Principal, body: { data: unknown }) => ({ fields: { data: body.data, deduplicate: body.data === 'b' }, id: {} })),
    write: jest.fn(async (_p: Principal, _t: string, prepared: { fields: { data: unknown } }) => {
      const key = prepared.fields.data === 'plain' ? 'c' : (prepared.fields.data as string);
      const w = written[key];
      return { ...w, row: { id: w.view.id } };
    }),
    // a call of created tokens only is written by one statement
    writeAllFresh: jest.fn(async (_p: Principal, _t: string, prepared: Array<{ fields: { data: unknown } }>) =>
      prepared.map((q) => written[q.fields.data === 'plain' ? 'c' : (q.fields.data as string)]),
    ),
    tenantDeduplicates: jest.fn(async () => false),
    rerenderWithTransforms: jest.fn(async () => [written['a'], written['b'], written['c']].map(({ view: v, transform }) => ({ view: v, transform }))),
  } as unknown as CreateTokenUseCase;
  const prisma = { transactional: jest.fn(async (fn: () => unknown) => fn()) } as unknown as PrismaService;
  const audit = { append: jest.fn(async () => undefined) } as unknown as AuditLog;
  const vault = { keyring: { warm: jest.fn(async () => undefined) } } as unknown as TokenVault;
  // the payloads here name no token intent: nothing is looked up
  const intents = { conversion: jest.fn(async () => null) } as unknown as TokenIntentsUseCase;
  return new TokenizeUseCase(create, prisma, audit, vault, intents);
}

const payload = { x: { type: 'token', data: 'a' }, y: [{ type: 'token', data: 'b' }], z: 'plain' };

describe('TokenizeUseCase: the rendered transform for reactor-service', () => {
  it('not asked: the reply is that of POST /tokenize, without the mark', async () => {
    const out = await acting(() => setup().execute(payload));
    expect(out).toEqual({ x: view('ta', 'XXb'), y: [view('tb', 'dup-secret')], z: 'tc' });
    expect(JSON.stringify(out)).not.toContain(TOKENIZE_RENDERED);
  });

  it('asked: each token view carries the transform it was rendered at (a deduplicated one: its read level)', async () => {
    const out = (await acting(() => setup().execute(payload, undefined, true))) as Record<string, unknown>;
    expect(out['x']).toEqual({ ...view('ta', 'XXb'), [TOKENIZE_RENDERED]: 'mask' });
    expect((out['y'] as unknown[])[0]).toEqual({ ...view('tb', 'dup-secret'), [TOKENIZE_RENDERED]: 'reveal' });
    expect(out['z']).toBe('tc'); // ids carry no data and no mark
  });

  it('asked, for a call written by one statement: each created token view carries the write reply transform', async () => {
    const out = (await acting(() => setup().execute({ x: { type: 'token', data: 'a' }, z: 'plain' }, undefined, true))) as Record<string, unknown>;
    expect(out).toEqual({ x: { ...view('ta', 'XXb'), [TOKENIZE_RENDERED]: 'mask' }, z: 'tc' });
  });

  it('an idempotent replay marks the views rendered again', async () => {
    const recorded = [
      { id: 'ta', created: true },
      { id: 'tb', created: false },
      { id: 'tc', created: true },
    ];
    // the codec is built in the request (its caller captured then); the replay itself reads no context
    const value = (await acting(() => setup().replayCodec(payload, true)).replay(recorded)) as Record<string, unknown>;
    expect(value['x']).toEqual({ ...view('ta', 'XXb'), [TOKENIZE_RENDERED]: 'mask' });
    expect((value['y'] as unknown[])[0]).toEqual({ ...view('tb', 'dup-secret'), [TOKENIZE_RENDERED]: 'reveal' });
  });
});
