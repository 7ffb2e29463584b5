import { ProblemError, unwrapIdempotentReplay } from '@coffer/contracts';
import type { PrismaService, SqlPool } from '@coffer/db';
import type { TenantKeyring } from '@coffer/crypto/keyring';
import { IdempotentWrites } from './idempotent-writes';
import { inProgress, type IdempotencyLedger, type LedgerEntry } from './idempotency-ledger';
import type { IdempotentRequest } from './idempotent-request';

const req: IdempotentRequest = { tenantId: 't', ownerId: 'o', key: 'k', route: 'r', requestHash: 'h' };

/** IdempotentWrites over an in-memory ledger; `takenBy` plays another request that records the key first. */
function setup(entry: LedgerEntry | null = null) {
  const state = { entry, takenBy: undefined as unknown, inFlight: false, transactions: 0 };
  const ledger = {
    find: jest.fn(async () => state.entry),
    hold: jest.fn(async () => {
      if (state.inFlight) throw inProgress();
    }),
    record: jest.fn(async (_r: IdempotentRequest, reply: unknown) => {
      if (state.takenBy !== undefined) {
        state.entry = { state: 'completed', reply: state.takenBy };
        return false;
      }
      state.entry = { state: 'completed', reply };
      return true;
    }),
    claim: jest.fn(async () => state.entry === null),
    complete: jest.fn(async (_r: IdempotentRequest, reply: unknown) => void (state.entry = { state: 'completed', reply })),
    release: jest.fn(async () => void (state.entry = null)),
  };
  const prisma = {
    transactional: jest.fn(async (work: () => Promise<unknown>) => {
      state.transactions++;
      return work();
    }),
  } as unknown as PrismaService;
  const writes = new IdempotentWrites(prisma, {} as TenantKeyring, {} as SqlPool);
  Object.assign(writes, { ledger: ledger as unknown as IdempotencyLedger });
  return { writes, ledger, state };
}

const codec = {
  reply: (o: { v: number }) => o.v,
  record: (o: { v: number }) => ({ stored: o.v }),
  replay: async (r: unknown) => (r as { stored: number }).stored * 10,
};

describe('IdempotentWrites.perform', () => {
  it('without a key the work just runs (and the codec renders its reply)', async () => {
    const { writes, state } = setup();
    expect(await writes.perform({ mode: 'transaction', request: undefined, codec }, async () => ({ v: 1 }))).toBe(1);
    expect(state.transactions).toBe(0);
  });

  describe('transaction', () => {
    it('runs the work in a transaction with the record of its outcome', async () => {
      const { writes, ledger, state } = setup();
      expect(await writes.perform({ mode: 'transaction', request: req, codec }, async () => ({ v: 2 }))).toBe(2);
      expect(state.transactions).toBe(1);
      expect(ledger.record).toHaveBeenCalledWith(req, { stored: 2 }, undefined);
    });

    it('a repeat of a completed request gets its replay, the work does not run', async () => {
      const { writes } = setup({ state: 'completed', reply: { stored: 3 } });
      const work = jest.fn();
      const out = await writes.perform({ mode: 'transaction', request: req, codec }, work);
      expect(unwrapIdempotentReplay(out)?.body).toBe(30);
      expect(work).not.toHaveBeenCalled();
    });

    it('a repeat while the first is in flight (its transaction holds the key) is a 409; nothing is recorded', async () => {
      const { writes, ledger, state } = setup();
      state.inFlight = true;
      const work = jest.fn(async () => ({ v: 1 }));
      await expect(writes.perform({ mode: 'transaction', request: req, codec }, work)).rejects.toMatchObject({ problem: { status: 409 } });
      expect(work).not.toHaveBeenCalled();
      expect(ledger.record).not.toHaveBeenCalled();
    });

    it('recordsItself: the work holds the key first through the write it is given; in flight elsewhere it is a 409', async () => {
      const { writes, ledger, state } = setup();
      state.inFlight = true;
      const work = jest.fn(async (write?: { hold(): Promise<void> }) => {
        await write?.hold();
        return { v: 2 };
      });
      await expect(writes.perform({ mode: 'transaction', request: req, codec, recordsItself: true }, work)).rejects.toMatchObject({
        problem: { status: 409 },
      });
      expect(ledger.hold).toHaveBeenCalledWith(req, undefined);
      expect(ledger.record).not.toHaveBeenCalled();
    });

    it('another request recorded the key first: this write rolls back and the winner’s reply is replayed', async () => {
      const { writes, state } = setup();
      state.takenBy = { stored: 4 };
      const out = await writes.perform({ mode: 'transaction', request: req, codec }, async () => ({ v: 5 }));
      expect(unwrapIdempotentReplay(out)?.body).toBe(40);
    });

    it('recordsItself: the work records through the write it is given, in its own transaction', async () => {
      const { writes, ledger, state } = setup();
      const out = await writes.perform({ mode: 'transaction', request: req, codec, recordsItself: true }, async (write) => {
        await write?.record({ stored: 6 }, 'tx' as never);
        return { v: 6 };
      });
      expect(out).toBe(6);
      expect(state.transactions).toBe(0);
      expect(ledger.record).toHaveBeenCalledWith(req, { stored: 6 }, 'tx');
    });

    it('recordsItself: a taken key is recognised even when the failure comes back transformed (an RPC problem)', async () => {
      const { writes, state } = setup();
      state.takenBy = { stored: 7 };
      const out = await writes.perform({ mode: 'transaction', request: req, codec, recordsItself: true }, async (write) => {
        await write?.record({ stored: 8 }).catch(() => {
          throw { status: 500, title: 'Internal Server Error' };
        });
        return { v: 8 };
      });
      expect(unwrapIdempotentReplay(out)?.body).toBe(70);
    });

    describe('recordsItself: the work runs before any lookup (its record is refused for a key recorded before)', () => {
      /** a work that records itself, as token-service's create does */
      const recording = (v: number) => async (write?: { record(value: unknown): Promise<void> }) => {
        await write?.record({ stored: v });
        return { v };
      };

      it('a new request is answered without looking its key up', async () => {
        const { writes, ledger } = setup();
        expect(await writes.perform({ mode: 'transaction', request: req, codec, recordsItself: true }, recording(9))).toBe(9);
        expect(ledger.find).not.toHaveBeenCalled();
      });

      it('a repeat the work refuses (an id it already wrote) gets the recorded reply', async () => {
        const { writes } = setup({ state: 'completed', reply: { stored: 3 } });
        const out = await writes.perform({ mode: 'transaction', request: req, codec, recordsItself: true }, async () =>
          Promise.reject(new ProblemError(409, 'A token with id "x" already exists')),
        );
        expect(unwrapIdempotentReplay(out)?.body).toBe(30);
      });

      it('a failure under a key another request used is that 422; under a new key, or when the lookup fails too, the work’s own', async () => {
        const refused = async () => Promise.reject(new ProblemError(400, 'bad'));
        const reused = setup();
        reused.ledger.find.mockRejectedValueOnce(new ProblemError(422, 'This idempotency key was already used for a different request'));
        await expect(reused.writes.perform({ mode: 'transaction', request: req, codec, recordsItself: true }, refused)).rejects.toMatchObject({
          problem: { status: 422 },
        });
        await expect(setup().writes.perform({ mode: 'transaction', request: req, codec, recordsItself: true }, refused)).rejects.toThrow('bad');
        const down = setup();
        down.ledger.find.mockRejectedValueOnce(new Error('connection terminated'));
        await expect(down.writes.perform({ mode: 'transaction', request: req, codec, recordsItself: true }, refused)).rejects.toThrow('bad');
      });

      it('a key recorded meanwhile is replayed after the refused record, by the lookup of the next round', async () => {
        const { writes, ledger, state } = setup();
        state.takenBy = { stored: 5 };
        const out = await writes.perform({ mode: 'transaction', request: req, codec, recordsItself: true }, recording(6));
        expect(unwrapIdempotentReplay(out)?.body).toBe(50);
        expect(ledger.find).toHaveBeenCalledTimes(1);
      });
    });

    it('any other failure is the caller’s', async () => {
      const { writes } = setup();
      await expect(writes.perform({ mode: 'transaction', request: req, codec }, async () => Promise.reject(new ProblemError(400, 'bad')))).rejects.toThrow(
        'bad',
      );
    });
  });

  describe('exclusive', () => {
    it('claims the key, runs the work, completes the record', async () => {
      const { writes, ledger } = setup();
      expect(await writes.perform({ mode: 'exclusive', request: req, codec, leaseMs: 1000 }, async () => ({ v: 9 }))).toBe(9);
      expect(ledger.claim).toHaveBeenCalledWith(req, 1000);
      expect(ledger.complete).toHaveBeenCalledWith(req, { stored: 9 });
    });

    it('a repeat while the first runs gets 409', async () => {
      const { writes } = setup({ state: 'running', lockedUntil: new Date(Date.now() + 60_000) });
      await expect(writes.perform({ mode: 'exclusive', request: req, codec, leaseMs: 1000 }, async () => ({ v: 1 }))).rejects.toMatchObject({
        problem: { status: 409 },
      });
    });

    it('a failure releases the key', async () => {
      const { writes, ledger } = setup();
      await expect(writes.perform({ mode: 'exclusive', request: req, codec, leaseMs: 1000 }, async () => Promise.reject(new Error('boom')))).rejects.toThrow(
        'boom',
      );
      expect(ledger.release).toHaveBeenCalledWith(req);
    });
  });
});

describe('IdempotentWrites begin, complete and release (a claim whose work runs in another process: a proxy call)', () => {
  it('claims a new key; the recorded reply once completed; a new claim once released', async () => {
    const { writes } = setup();
    expect(await writes.begin(req, 1000)).toEqual({ claimed: true });
    await writes.release(req);
    expect(await writes.begin(req, 1000)).toEqual({ claimed: true });
    await writes.complete(req, { status: 200 });
    expect(await writes.begin(req, 1000)).toEqual({ recorded: { status: 200 } });
  });

  it('409 while another claim holds the key; an expired claim is taken over', async () => {
    await expect(setup({ state: 'running', lockedUntil: new Date(Date.now() + 60_000) }).writes.begin(req, 1000)).rejects.toMatchObject({
      problem: { status: 409 },
    });
    const expired = setup({ state: 'running', lockedUntil: new Date(Date.now() - 1) });
    expired.ledger.claim.mockResolvedValueOnce(true);
    expect(await expired.writes.begin(req, 1000)).toEqual({ claimed: true });
  });

  it('losing the claim to a request that completed meanwhile replays its reply', async () => {
    const { writes, ledger, state } = setup();
    ledger.claim.mockImplementationOnce(async () => {
      state.entry = { state: 'completed', reply: { status: 201 } };
      return false;
    });
    expect(await writes.begin(req, 1000)).toEqual({ recorded: { status: 201 } });
  });
});
