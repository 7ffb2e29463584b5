import { TOKENIZE_RENDERED, type AccessRule, type Principal, type Transform } from '@coffer/contracts';
import { capTokenizeReply, recapTokens, replyCeiling, type ShownView } from './reply-ceiling';

const principal = (over: Partial<Principal>): Principal => ({ tenantId: 't', applicationId: 'a', applicationType: 'private', permissions: [], ...over });
const rule = (transform: Transform, permissions: string[], container = '/'): AccessRule => ({ priority: 1, container, transform, permissions });

const CARD = { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 };
const CARD_MASK = {
  number: '{{ data.number | reveal_last: 4 }}',
  expiration_month: '{{ data.expiration_month }}',
  expiration_year: '{{ data.expiration_year }}',
};
const view = (id: string, data: unknown, mask?: unknown, container = '/pci/high/') => ({
  id,
  type: 'card',
  containers: [container],
  ...(data === undefined ? {} : { data }),
  ...(mask ? { mask } : {}),
});
/** a view as token-service's tokenize answers reactor-service: with the transform it was rendered at */
const rendered = <V extends object>(v: V, transform: Transform) => ({ ...v, [TOKENIZE_RENDERED]: transform });

// a Reactor application that may reveal everything it creates, and callers of several kinds
const app = principal({ applicationId: 'app', permissions: ['token:create', 'token:read', 'token:use'] });
const revealer = principal({ applicationId: 'c1', permissions: ['token:use', 'token:read'] });
const masker = principal({
  applicationId: 'c2',
  rules: [rule('mask', ['token:read', 'token:use'], '/nothing/'), rule('mask', ['token:read'], '/pci/')].map((r, i) => ({ ...r, priority: i + 1 })),
});
const blind = principal({ applicationId: 'c3', rules: [rule('reveal', ['token:use'], '/other/')] });

describe('capTokenizeReply: a react reply, first sent', () => {
  const request = { card: { type: 'card', data: CARD }, list: [{ type: 'token', data: 'x' }, 'plain'], n: 5 };
  // as token-service renders them for the application: its create reply transform is mask
  const MASKED = { number: 'XXXXXXXXXXXX4242', expiration_month: 12, expiration_year: 2030 };
  const created = {
    card: rendered(view('t1', MASKED, CARD_MASK), 'mask'),
    list: [rendered(view('t2', 'x', '{{ data }}', '/general/high/'), 'mask'), 'id-of-plain'],
    n: 'id-of-5',
  };

  it('records where each view is and the transform it was shown at', () => {
    const shown: ShownView[] = [];
    const out = capTokenizeReply(request, created, app, masker, shown) as typeof created;
    expect(out.card.data).toEqual(MASKED);
    expect(shown).toEqual([
      { path: ['card'], id: 't1', container: '/pci/high/', transform: 'mask', exact: true },
      { path: ['list', 0], id: 't2', container: '/general/high/', transform: 'redact', exact: true },
    ]);
    expect(out.list[0]).not.toHaveProperty('data');
    expect(out.list[1]).toBe('id-of-plain');
    // the rendered transform is token-service's note to reactor-service, never part of the reply
    expect(JSON.stringify(out)).not.toContain(TOKENIZE_RENDERED);
  });

  it('a reactor without an application: created views are as token-service rendered them for the caller', () => {
    const shown: ShownView[] = [];
    const out = capTokenizeReply(request, created, app, null, shown);
    expect(out).toEqual({ card: view('t1', MASKED, CARD_MASK), list: [view('t2', 'x', '{{ data }}', '/general/high/'), 'id-of-plain'], n: 'id-of-5' });
    expect(shown.map((s) => s.transform)).toEqual(['mask', 'mask']);
  });

  describe('a deduplicated token (token-service renders it at the writer’s read level, not its write reply)', () => {
    // `app` reads revealed (token:use) but its create reply is mask: the existing token comes back revealed
    const dedup = { card: rendered(view('t9', CARD, CARD_MASK), 'reveal') };
    const req = { card: { type: 'card', data: CARD, deduplicate_token: true } };

    it('a caller that may read masked sees it masked (the mask evaluated over the revealed data)', () => {
      const shown: ShownView[] = [];
      const out = capTokenizeReply(req, dedup, app, masker, shown) as { card: { data: unknown } };
      expect(out.card.data).toEqual(MASKED);
      expect(JSON.stringify(out)).not.toContain(CARD.number);
      expect(shown).toEqual([{ path: ['card'], id: 't9', container: '/pci/high/', transform: 'mask', exact: true }]);
    });

    it('a caller that may reveal sees no more than the application’s write reply (mask)', () => {
      const out = capTokenizeReply(req, dedup, app, revealer) as { card: { data: unknown } };
      expect(out.card.data).toEqual(MASKED);
    });

    it('a caller that may not read it sees no data', () => {
      const out = capTokenizeReply(req, dedup, app, blind) as { card: { data?: unknown } };
      expect(out.card).not.toHaveProperty('data');
    });

    it('a reactor without an application: the caller’s own write reply caps it too', () => {
      const shown: ShownView[] = [];
      const out = capTokenizeReply(req, dedup, app, null, shown) as { card: { data: unknown } };
      expect(out.card.data).toEqual(MASKED);
      expect(shown[0].transform).toBe('mask');
    });

    it('the application may reveal what it creates: a revealing caller sees the revealed data', () => {
      const revealingApp = principal({ applicationId: 'app', rules: [rule('reveal', ['token:create', 'token:read', 'token:use'])] });
      const out = capTokenizeReply(req, dedup, revealingApp, revealer) as { card: { data: unknown } };
      expect(out.card.data).toEqual(CARD);
    });

    it('rendered below the write reply (the writer reads masked or not at all): never raised', () => {
      const revealingApp = principal({ applicationId: 'app', rules: [rule('reveal', ['token:create', 'token:read', 'token:use'])] });
      const limited = { card: rendered({ id: 't9', type: 'card', containers: ['/pci/high/'], fingerprint: 'f' }, 'redact') };
      const shown: ShownView[] = [];
      const out = capTokenizeReply(req, limited, revealingApp, revealer, shown) as { card: { data?: unknown } };
      expect(out.card).not.toHaveProperty('data');
      expect(shown[0].transform).toBe('redact');
      const maskedView = { card: rendered(view('t9', MASKED, CARD_MASK), 'mask') };
      const kept = capTokenizeReply(req, maskedView, revealingApp, revealer, shown) as { card: { data: unknown } };
      expect(kept.card.data).toEqual(MASKED);
      expect(shown[1].transform).toBe('mask');
    });

    it('a replay of it is never above its first reply, even for a caller that may reveal now', () => {
      const shown: ShownView[] = [];
      const first = capTokenizeReply(req, dedup, app, masker, shown);
      const revealingApp = principal({ applicationId: 'app', rules: [rule('reveal', ['token:create', 'token:read', 'token:use'])] });
      const replay = recapTokens(first, shown, replyCeiling(revealingApp, revealer, false)) as { card: { data: unknown } };
      expect(replay.card.data).toEqual(MASKED);
    });
  });

  it('a view without the rendered transform (an older token-service) is taken as revealed: capped by the mask', () => {
    const unmarked = { card: view('t1', CARD, CARD_MASK) };
    const out = capTokenizeReply({ card: { type: 'card', data: CARD } }, unmarked, app, masker) as { card: { data: unknown } };
    expect(out.card.data).toEqual(MASKED);
    const garbage = { card: { ...view('t1', CARD, CARD_MASK), [TOKENIZE_RENDERED]: 'everything' } };
    const out2 = capTokenizeReply({ card: { type: 'card', data: CARD } }, garbage, app, masker) as { card: { data: unknown } };
    expect(out2.card.data).toEqual(MASKED);
    expect(out2.card).not.toHaveProperty(TOKENIZE_RENDERED);
  });
});

describe('recapTokens: a react reply rendered again', () => {
  const tokens = { card: view('t1', CARD, CARD_MASK), other: [view('t2', 'secretvalue1', '{{ data | reveal_last: 2 }}', '/general/high/')] };
  const shown: ShownView[] = [
    { path: ['card'], id: 't1', container: '/pci/high/', transform: 'reveal' },
    { path: ['other', 0], id: 't2', container: '/general/high/', transform: 'reveal' },
  ];
  const at = (t: Transform) => () => t;

  it('keeps what the rules still allow', () => {
    expect(recapTokens(tokens, shown, at('reveal'))).toEqual(tokens);
  });

  it('reveal → mask evaluates the mask over the revealed data', () => {
    const out = recapTokens(tokens, shown, at('mask')) as typeof tokens;
    expect(out.card.data).toEqual({ number: 'XXXXXXXXXXXX4242', expiration_month: 12, expiration_year: 2030 });
    expect(out.other[0].data).toBe('XXXXXXXXXXe1');
    expect(tokens.card.data).toBe(CARD); // the stored reply is not changed
  });

  it('→ redact drops data; a view without a mask is redacted by mask too', () => {
    const out = recapTokens(tokens, shown, (ref) => (ref.id === 't1' ? 'redact' : 'mask')) as typeof tokens;
    expect(out.card).not.toHaveProperty('data');
    expect(out.card.id).toBe('t1');
    const maskless = recapTokens(view('t3', 'v'), [{ path: [], id: 't3', container: '/pci/high/', transform: 'reveal' }], at('mask'));
    expect(maskless).not.toHaveProperty('data');
  });

  it('never raises a view above what it was first shown at', () => {
    const masked = { card: view('t1', { number: 'XXXXXXXXXXXX4242' }, CARD_MASK) };
    const out = recapTokens(masked, [{ path: ['card'], id: 't1', container: '/pci/high/', transform: 'mask' }], at('reveal'));
    expect(out).toEqual(masked);
    const lowered = recapTokens(masked, [{ path: ['card'], id: 't1', container: '/pci/high/', transform: 'mask' }], at('redact')) as typeof masked;
    expect(lowered.card).not.toHaveProperty('data');
  });

  it('a record without what was shown (kept before it was recorded) loses every view data, ids stay', () => {
    const out = recapTokens({ ...tokens, id: 'plain-id' }, undefined, at('reveal')) as Record<string, unknown>;
    expect(out['card']).not.toHaveProperty('data');
    expect((out['other'] as unknown[])[0]).not.toHaveProperty('data');
    expect(out['id']).toBe('plain-id');
  });

  it('a mask that no longer evaluates redacts', () => {
    const broken = { t: view('t4', 'abc', '{{ data | no_such_filter }}') };
    const out = recapTokens(broken, [{ path: ['t'], id: 't4', container: '/pci/high/', transform: 'reveal' }], at('mask')) as typeof broken;
    expect(out.t).not.toHaveProperty('data');
  });

  it('a record made before `exact` was recorded: a view below reveal is lowered as if revealed (a deduplicated token)', () => {
    // the stored view holds revealed data though the record says mask (deduplicated at the writer's read level)
    const stale = { card: view('t1', CARD, CARD_MASK) };
    const out = recapTokens(stale, [{ path: ['card'], id: 't1', container: '/pci/high/', transform: 'mask' }], at('reveal')) as typeof stale;
    expect(out.card.data).toEqual({ number: 'XXXXXXXXXXXX4242', expiration_month: 12, expiration_year: 2030 });
    // an exact record of a masked view keeps its data as it is
    const exact = { card: view('t1', { number: 'XXXXXXXXXXXX4242', expiration_month: 12, expiration_year: 2030 }, CARD_MASK) };
    expect(recapTokens(exact, [{ path: ['card'], id: 't1', container: '/pci/high/', transform: 'mask', exact: true }], at('reveal'))).toEqual(exact);
  });

  it('a path that holds another token than recorded fails closed', () => {
    const out = recapTokens({ t: view('other', 'abc') }, [{ path: ['t'], id: 't5', container: '/', transform: 'reveal' }], at('reveal')) as {
      t: { data?: unknown };
    };
    expect(out.t).not.toHaveProperty('data');
  });
});

describe('replyCeiling: the rules in force now', () => {
  const ref = { id: 't1', container: '/pci/high/' };

  it('a Reactor application: the lower of its write reply transform and the caller’s own ceiling', () => {
    expect(replyCeiling(app, revealer, false)(ref)).toBe('mask'); // create's implicit transform is mask
    const revealingApp = principal({ applicationId: 'app', rules: [rule('reveal', ['token:create', 'token:read', 'token:use'])] });
    expect(replyCeiling(revealingApp, revealer, false)(ref)).toBe('reveal');
    expect(replyCeiling(revealingApp, masker, false)(ref)).toBe('mask');
    expect(replyCeiling(revealingApp, blind, false)(ref)).toBe('redact');
  });

  it('the application no longer exists: nothing is shown', () => {
    expect(replyCeiling(null, revealer, false)(ref)).toBe('redact');
  });

  it('the caller created the tokens itself: its write reply transform now', () => {
    const writer = principal({ rules: [rule('reveal', ['token:create', 'token:use'])] });
    expect(replyCeiling(null, writer, true)(ref)).toBe('reveal');
    const narrowed = principal({ rules: [rule('mask', ['token:create', 'token:read'])] });
    expect(replyCeiling(null, narrowed, true)(ref)).toBe('mask');
    expect(replyCeiling(null, principal({ permissions: ['token:use'] }), true)(ref)).toBe('redact');
  });

  it('a narrowed caller on replay: reveal → mask, end to end', () => {
    const revealingApp = principal({ applicationId: 'app', rules: [rule('reveal', ['token:create', 'token:read', 'token:use'])] });
    const shown: ShownView[] = [];
    const first = capTokenizeReply({ c: { type: 'card', data: CARD } }, { c: rendered(view('t1', CARD, CARD_MASK), 'reveal') }, revealingApp, revealer, shown);
    expect((first as { c: { data: unknown } }).c.data).toEqual(CARD);
    const replay = recapTokens(first, shown, replyCeiling(revealingApp, masker, false)) as { c: { data: unknown } };
    expect(replay.c.data).toEqual({ number: 'XXXXXXXXXXXX4242', expiration_month: 12, expiration_year: 2030 });
    const gone = recapTokens(first, shown, replyCeiling(revealingApp, blind, false)) as { c: { data?: unknown } };
    expect(gone.c).not.toHaveProperty('data');
  });
});
