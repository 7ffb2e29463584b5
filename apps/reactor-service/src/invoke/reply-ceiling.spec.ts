import type { AccessRule, Principal, Transform } from '@coffer/contracts';
import { capTokenizeReply, recapTokens, replyCeiling, type ShownView } from './reply-ceiling';

const principal = (over: Partial<Principal>): Principal => ({ tenantId: 't', applicationId: 'a', applicationType: 'private', permissions: [], ...over });
const rule = (transform: Transform, permissions: string[], container = '/'): AccessRule => ({ priority: 1, container, transform, permissions });

const CARD = { number: '4242424242424242', expiration_month: 12, expiration_year: 2030 };
const CARD_MASK = { number: '{{ data.number | reveal_last: 4 }}', expiration_month: '{{ data.expiration_month }}', expiration_year: '{{ data.expiration_year }}' };
const view = (id: string, data: unknown, mask?: unknown, container = '/pci/high/') => ({ id, type: 'card', containers: [container], ...(data === undefined ? {} : { data }), ...(mask ? { mask } : {}) });

// a Reactor application that may reveal everything it creates, and callers of several kinds
const app = principal({ applicationId: 'app', permissions: ['token:create', 'token:read', 'token:use'] });
const revealer = principal({ applicationId: 'c1', permissions: ['token:use', 'token:read'] });
const masker = principal({ applicationId: 'c2', rules: [rule('mask', ['token:read', 'token:use'], '/nothing/'), rule('mask', ['token:read'], '/pci/')].map((r, i) => ({ ...r, priority: i + 1 })) });
const blind = principal({ applicationId: 'c3', rules: [rule('reveal', ['token:use'], '/other/')] });

describe('capTokenizeReply: a react reply, first sent', () => {
  const request = { card: { type: 'card', data: CARD }, list: [{ type: 'token', data: 'x' }, 'plain'], n: 5 };
  // as token-service renders them for the application: its create reply transform is mask
  const MASKED = { number: 'XXXXXXXXXXXX4242', expiration_month: 12, expiration_year: 2030 };
  const created = { card: view('t1', MASKED, CARD_MASK), list: [view('t2', 'x', '{{ data }}', '/general/high/'), 'id-of-plain'], n: 'id-of-5' };

  it('records where each view is and the transform it was shown at', () => {
    const shown: ShownView[] = [];
    const out = capTokenizeReply(request, created, app, masker, shown) as typeof created;
    expect(out.card.data).toEqual(MASKED);
    expect(shown).toEqual([
      { path: ['card'], id: 't1', container: '/pci/high/', transform: 'mask' },
      { path: ['list', 0], id: 't2', container: '/general/high/', transform: 'redact' },
    ]);
    expect(out.list[0]).not.toHaveProperty('data');
    expect(out.list[1]).toBe('id-of-plain');
  });

  it('a reactor without an application: the views are as token-service rendered them for the caller', () => {
    const shown: ShownView[] = [];
    const out = capTokenizeReply(request, created, revealer, null, shown);
    expect(out).toEqual(created);
    // the caller holds no token:create: the write reply transform says what a replay may show at most
    expect(shown.map((s) => s.transform)).toEqual(['redact', 'redact']);
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

  it('a path that holds another token than recorded fails closed', () => {
    const out = recapTokens({ t: view('other', 'abc') }, [{ path: ['t'], id: 't5', container: '/', transform: 'reveal' }], at('reveal')) as { t: { data?: unknown } };
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
    const first = capTokenizeReply({ c: { type: 'card', data: CARD } }, { c: view('t1', CARD, CARD_MASK) }, revealingApp, revealer, shown);
    expect((first as { c: { data: unknown } }).c.data).toEqual(CARD);
    const replay = recapTokens(first, shown, replyCeiling(revealingApp, masker, false)) as { c: { data: unknown } };
    expect(replay.c.data).toEqual({ number: 'XXXXXXXXXXXX4242', expiration_month: 12, expiration_year: 2030 });
    const gone = recapTokens(first, shown, replyCeiling(revealingApp, blind, false)) as { c: { data?: unknown } };
    expect(gone.c).not.toHaveProperty('data');
  });
});
