import { describe, expect, it } from 'vitest';
import { checkFrameMessage, checkParentMessage, isEnvelope, parentHints, PROTOCOL_VERSION, type ParentLink } from './protocol';

const parent = { name: 'parent window' };
const other = { name: 'another window' };
const env = (type: string, extra: Record<string, unknown> = {}) => ({ coffer: PROTOCOL_VERSION, instance: 'i1', element: 'e1', type, ...extra });
const SHOP = 'https://shop.example';

describe('frame side: messages from the parent page', () => {
  it('pins the origin of the first init from window.parent and then accepts only that origin', () => {
    const link: ParentLink = {};
    expect(checkParentMessage({ source: parent, origin: SHOP, data: env('init') }, parent, link, {})).toBeTruthy();
    expect(link).toEqual({ origin: SHOP, instance: 'i1', element: 'e1' });
    expect(checkParentMessage({ source: parent, origin: SHOP, data: env('clear') }, parent, link, {})).toBeTruthy();
    expect(checkParentMessage({ source: parent, origin: 'https://evil.example', data: env('clear') }, parent, link, {})).toBeUndefined();
  });

  it('ignores messages from any window but the parent, even from the right origin', () => {
    const link: ParentLink = {};
    expect(checkParentMessage({ source: other, origin: SHOP, data: env('init') }, parent, link, {})).toBeUndefined();
    expect(link.origin).toBeUndefined();
    checkParentMessage({ source: parent, origin: SHOP, data: env('init') }, parent, link, {});
    expect(checkParentMessage({ source: other, origin: SHOP, data: env('focus') }, parent, link, {})).toBeUndefined();
    expect(checkParentMessage({ source: null, origin: SHOP, data: env('focus') }, parent, link, {})).toBeUndefined();
  });

  it('needs init first, and never pins an opaque origin', () => {
    const link: ParentLink = {};
    expect(checkParentMessage({ source: parent, origin: SHOP, data: env('request') }, parent, link, {})).toBeUndefined();
    expect(checkParentMessage({ source: parent, origin: 'null', data: env('init') }, parent, link, {})).toBeUndefined();
    expect(link.origin).toBeUndefined();
  });

  it('refuses an init whose origin differs from ancestorOrigins or the referrer', () => {
    expect(checkParentMessage({ source: parent, origin: SHOP, data: env('init') }, parent, {}, { ancestorOrigin: 'https://other.example' })).toBeUndefined();
    expect(checkParentMessage({ source: parent, origin: SHOP, data: env('init') }, parent, {}, { referrerOrigin: 'https://other.example' })).toBeUndefined();
    expect(checkParentMessage({ source: parent, origin: SHOP, data: env('init') }, parent, {}, { ancestorOrigin: SHOP, referrerOrigin: SHOP })).toBeTruthy();
  });

  it('accepts only the instance and element it was initialised for', () => {
    const link: ParentLink = {};
    checkParentMessage({ source: parent, origin: SHOP, data: env('init') }, parent, link, {});
    expect(checkParentMessage({ source: parent, origin: SHOP, data: { ...env('clear'), instance: 'i2' } }, parent, link, {})).toBeUndefined();
    expect(checkParentMessage({ source: parent, origin: SHOP, data: { ...env('clear'), element: 'e2' } }, parent, link, {})).toBeUndefined();
  });

  it('ignores anything that is not an envelope', () => {
    const link: ParentLink = {};
    for (const data of [null, 'init', { type: 'init' }, { ...env('init'), coffer: 2 }, { ...env('init'), instance: 1 }]) {
      expect(checkParentMessage({ source: parent, origin: SHOP, data }, parent, link, {})).toBeUndefined();
    }
    expect(isEnvelope(env('x'))).toBe(true);
  });

  it('reads the hints the browser gives', () => {
    expect(parentHints({ ancestorOrigins: [SHOP, 'https://top.example'] }, `${SHOP}/checkout?x=1`)).toEqual({ ancestorOrigin: SHOP, referrerOrigin: SHOP });
    expect(parentHints({}, '')).toEqual({ ancestorOrigin: undefined, referrerOrigin: undefined });
    expect(parentHints({ ancestorOrigins: ['null'] }, 'not a url')).toEqual({ ancestorOrigin: undefined, referrerOrigin: undefined });
  });
});

describe('page side: messages from the frames', () => {
  const ELEMENTS = 'https://elements.example';
  const frameWin = { name: 'frame' };
  const frames = new Map<unknown, { id: string }>([[frameWin, { id: 'e1' }]]);

  it('accepts a message from one of its frames on the elements origin', () => {
    const hit = checkFrameMessage({ source: frameWin, origin: ELEMENTS, data: env('change') }, ELEMENTS, 'i1', frames);
    expect(hit?.frame.id).toBe('e1');
    expect(hit?.message.type).toBe('change');
  });

  it('ignores another origin, another window, another instance or another element', () => {
    expect(checkFrameMessage({ source: frameWin, origin: SHOP, data: env('change') }, ELEMENTS, 'i1', frames)).toBeUndefined();
    expect(checkFrameMessage({ source: other, origin: ELEMENTS, data: env('change') }, ELEMENTS, 'i1', frames)).toBeUndefined();
    expect(checkFrameMessage({ source: null, origin: ELEMENTS, data: env('change') }, ELEMENTS, 'i1', frames)).toBeUndefined();
    expect(checkFrameMessage({ source: frameWin, origin: ELEMENTS, data: env('change') }, ELEMENTS, 'i2', frames)).toBeUndefined();
    expect(checkFrameMessage({ source: frameWin, origin: ELEMENTS, data: { ...env('change'), element: 'e2' } }, ELEMENTS, 'i1', frames)).toBeUndefined();
    expect(checkFrameMessage({ source: frameWin, origin: ELEMENTS, data: 'change' }, ELEMENTS, 'i1', frames)).toBeUndefined();
  });
});
