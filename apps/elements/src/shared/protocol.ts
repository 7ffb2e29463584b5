/*
 * Coffer Elements — the message protocol between the page (the loader, elements.js) and Coffer's frames.
 *
 * Who is where
 *   - The page runs elements.js (or elements.mjs). It learns the ELEMENTS ORIGIN from its own script URL
 *     (document.currentScript.src / import.meta.url) and makes every iframe from <that base>/frames/<type>.html.
 *   - Each init() adds one hidden CONTROLLER frame (frames/controller.html): it holds the API key and is the only
 *     frame that calls the API (fetch, from the elements origin). Each createElement(…).mount() adds one ELEMENT
 *     frame (frames/card.html, cardNumber.html, cardExpirationDate.html, cardVerificationCode.html, text.html).
 *   - The frames of one init() share values among themselves only, on a BroadcastChannel named
 *     `coffer-elements:<channel>`, where <channel> is 128 random bits the loader makes per init(). Every frame of the
 *     elements origin in the same browsing context group / storage partition could join a channel of that name, and
 *     only Coffer's own code runs on that origin.
 *
 * Start-up: the loader adds `?k=<SHA-256 of the init key, hex>` to every frame's address (the server picks the frame's
 * CSP frame-ancestors from that key's tenant). A frame's script first posts `{ coffer: 1, type: 'hello' }` to its
 * parent with targetOrigin '*' (it carries nothing: the frame does not know its parent's origin yet). The loader
 * answers a hello only from the contentWindow of an iframe it made, with `init`. The controller's hello also tells the
 * loader the elements origin when elements.js was loaded through a redirect (the API origin's /elements/… answers
 * 307 to the Elements origin; a classic script's currentScript.src is the address before the redirect): the origin is
 * taken from that hello's event.origin (set by the browser) only, and every later message must come from it. The
 * controller frame answers init with `ready`, or `error` when SHA-256(apiKey) is not the `k` it was served for.
 *
 * Envelope: every page⇄frame message is a plain object { coffer: 1, instance, element, type, … }: `instance` is the
 * init()'s random id, `element` the random id of the frame's element ('controller' for the controller frame).
 *
 * Origin checks
 *   - Frame side (checkParentMessage): a message counts only when event.source === window.parent. The first accepted
 *     message must be `init`; its event.origin (set by the browser, not the sender) is PINNED as the parent origin,
 *     after checking it equals location.ancestorOrigins[0] and the origin of document.referrer whenever the browser
 *     gives them, and that it is not an opaque origin ('null'). Later messages must come from the pinned origin. The
 *     frame posts to the page with targetOrigin = the pinned origin, never '*'.
 *   - Page side (checkFrameMessage): a message counts only when event.origin === the elements origin, event.source is
 *     the contentWindow of an iframe this instance made, and its `instance` and `element` are that iframe's. The loader
 *     posts to its frames with targetOrigin = the elements origin.
 *
 * Page → frame
 *   init     { elementType, channel, options, [controller:] apiKey, apiBaseUrl }   first message, after iframe load
 *   update   { options }            merged into the frame's options
 *   clear | focus | blur           (element frames)
 *   request  { id, op, body, apiKey?, idempotencyKey?, correlationId? }  (controller) op: 'tokens.create' | 'tokenize' |
 *            'tokenIntents.create' | 'sessions.create'. `body` holds element references { $coffer: { element, part? } }
 *            where the page passed an element (part: 'month' | 'year' of an expiration date element).
 * Frame → page — never a value: only states, brand, last 4 and BIN of a complete card number, Enter/Escape keys
 *   ready    {}
 *   error    { error: { name, message } }  (controller) init refused: the key is not the one its address names
 *   change   { event: { empty, complete, valid, errors: [{ targetId, type }], maskSatisfied?, cardBrand?, cardLast4?,
 *            cardBin? } }
 *   focus | blur { targetId }
 *   keydown  { targetId, key: 'Enter' | 'Escape', altKey, ctrlKey, shiftKey, metaKey } (other keys are not reported)
 *   resize   { height }            the frame's content height in CSS pixels
 *   response { id, ok: true, result } | { id, ok: false, error: { name, status?, message, data?, details? } }
 *            (controller) the API's reply without `data`, with `card` details the frame computed
 * Frame ⇄ frame (BroadcastChannel, elements origin only)
 *   collect  { id, elements: [elementId…] }        controller → element frames
 *   value    { id, element, kind, state, value? }  element frame → controller; value only when complete and valid
 *                                                  (kind: the element type, for the security-code rules of template.ts)
 *   brand    { element, brand }                    a card number (or card) frame, on every brand change / on request
 *   brand?   { element }                           a security code frame asking the brand of its cardNumberElement
 */

export const PROTOCOL_VERSION = 1;
export const CONTROLLER_ID = 'controller';

export type ElementType = 'card' | 'cardNumber' | 'cardExpirationDate' | 'cardVerificationCode' | 'text';
export const ELEMENT_TYPES: readonly ElementType[] = ['card', 'cardNumber', 'cardExpirationDate', 'cardVerificationCode', 'text'];

export interface Envelope {
  coffer: typeof PROTOCOL_VERSION;
  instance: string;
  element: string;
  type: string;
  [key: string]: unknown;
}

export function isEnvelope(data: unknown): data is Envelope {
  if (!data || typeof data !== 'object') return false;
  const d = data as Record<string, unknown>;
  return d.coffer === PROTOCOL_VERSION && typeof d.instance === 'string' && typeof d.element === 'string' && typeof d.type === 'string';
}

export function originOf(url: string | undefined | null): string | undefined {
  if (!url) return undefined;
  try {
    const o = new URL(url).origin;
    return o === 'null' ? undefined : o;
  } catch {
    return undefined;
  }
}

/** What the browser says about the parent: location.ancestorOrigins[0] (Chromium, WebKit) and document.referrer. */
export interface ParentHints {
  ancestorOrigin?: string;
  referrerOrigin?: string;
}

export function parentHints(loc: { ancestorOrigins?: ArrayLike<string> }, referrer: string): ParentHints {
  const ancestor = loc.ancestorOrigins && loc.ancestorOrigins.length > 0 ? loc.ancestorOrigins[0] : undefined;
  return { ancestorOrigin: ancestor && ancestor !== 'null' ? ancestor : undefined, referrerOrigin: originOf(referrer) };
}

export interface ParentLink {
  /** the parent's origin, pinned by the first accepted message (init) */
  origin?: string;
  instance?: string;
  element?: string;
}

interface MessageLike {
  source: unknown;
  origin: string;
  data: unknown;
}

/** Frame side: whether a message comes from the page that embeds this frame (and pins its origin on init). */
export function checkParentMessage(ev: MessageLike, parentWindow: unknown, link: ParentLink, hints: ParentHints): Envelope | undefined {
  if (!parentWindow || ev.source !== parentWindow) return undefined;
  if (!isEnvelope(ev.data)) return undefined;
  if (link.origin !== undefined) {
    if (ev.origin !== link.origin || ev.data.instance !== link.instance || ev.data.element !== link.element) return undefined;
    return ev.data;
  }
  if (ev.data.type !== 'init' || !ev.origin || ev.origin === 'null') return undefined;
  if (hints.ancestorOrigin && ev.origin !== hints.ancestorOrigin) return undefined;
  if (hints.referrerOrigin && ev.origin !== hints.referrerOrigin) return undefined;
  link.origin = ev.origin;
  link.instance = ev.data.instance;
  link.element = ev.data.element;
  return ev.data;
}

/** Page side: the frame a message comes from, when it comes from one of this instance's frames on the elements origin. */
export function checkFrameMessage<F extends { id: string }>(
  ev: MessageLike,
  elementsOrigin: string,
  instance: string,
  frames: ReadonlyMap<unknown, F>,
): { frame: F; message: Envelope } | undefined {
  if (ev.origin !== elementsOrigin || !ev.source) return undefined;
  const frame = frames.get(ev.source);
  if (!frame) return undefined;
  if (!isEnvelope(ev.data) || ev.data.instance !== instance || ev.data.element !== frame.id) return undefined;
  return { frame, message: ev.data };
}

/** The keys a keydown event reports; every other key stays in the frame (it could be a typed digit). */
export const LISTENABLE_KEYS = ['Enter', 'Escape'] as const;

export function randomId(bytes = 16): string {
  const a = new Uint8Array(bytes);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** SHA-256 of a key, lower-case hex: how the loader names the key in a frame's address (`?k=`), never the key itself. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The frame's first word: `{ coffer: 1, type: 'hello' }`, posted to its parent with '*' (it carries nothing). */
export function isHello(data: unknown): boolean {
  return (
    !!data && typeof data === 'object' && (data as Record<string, unknown>).coffer === PROTOCOL_VERSION && (data as Record<string, unknown>).type === 'hello'
  );
}

export function channelName(channel: string): string {
  return `coffer-elements:${channel}`;
}
