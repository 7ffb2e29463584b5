// The page side of Coffer Elements: CofferElements.init(), elements (iframes of Coffer's origin) and the API calls
// the controller frame makes for the page. The page never holds a value: it holds elements, which it may put in a
// request body where a value goes. The protocol: ../shared/protocol.ts.
import {
  CONTROLLER_ID,
  ELEMENT_TYPES,
  PROTOCOL_VERSION,
  checkFrameMessage,
  isHello,
  randomId,
  sha256Hex,
  type ElementType,
  type Envelope,
} from '../shared/protocol';
import { toTemplate, type ElementRef } from '../shared/template';
import type { ChangeEvent, ElementEvent, ElementEventType } from '../shared/types';
import type { InitOptions, Coffer as PublicCoffer, RequestOptions, Subscription, TokenReply } from '../../static/elements';

const LOAD_TIMEOUT_MS = 15000;
/** after an iframe's load event, its ready comes within milliseconds; a frame the browser refused never sends it */
const READY_AFTER_LOAD_MS = 5000;
const REQUEST_TIMEOUT_MS = 60000;

export type { InitOptions, RequestOptions, Subscription };

export interface CofferError extends Error {
  name: 'CofferApiError' | 'CofferValidationError' | 'CofferConfigurationError' | 'CofferError';
  status?: number;
  data?: unknown;
  details?: Record<string, { type: string }>;
  validation?: { targetId: string; type: string }[];
}

export function cofferError(name: CofferError['name'], message: string, extra: Record<string, unknown> = {}): CofferError {
  const e = new Error(message) as CofferError;
  e.name = name;
  for (const k of ['status', 'data', 'details', 'validation'] as const) if (extra[k] !== undefined) (e as unknown as Record<string, unknown>)[k] = extra[k];
  return e;
}

interface FrameRecord {
  id: string;
  onMessage(m: Envelope): void;
}

const OPTION_KEYS = new Set([
  'targetId',
  'style',
  'disabled',
  'readOnly',
  'inputMode',
  'ariaLabel',
  'aria-label',
  'title',
  'autoComplete',
  'placeholder',
  'cardTypes',
  'skipLuhnValidation',
  'mask',
  'validation',
  'maxLength',
  'password',
  'cardBrand',
  'cardNumberElement',
]);

const FRAME_TITLES: Record<ElementType, string> = {
  card: 'Secure card payment input',
  cardNumber: 'Secure card number input',
  cardExpirationDate: 'Secure expiration date input',
  cardVerificationCode: 'Secure security code input',
  text: 'Secure text input',
};

/** A part of an expiration date element standing for its month or year (element.month(), element.year()). */
export class ElementPart {
  constructor(
    readonly element: CofferElement,
    readonly method: 'month' | 'year',
  ) {}
}

export class CofferElement {
  readonly id = randomId(8);
  mounted = false;
  /** the last change event's state */
  metadata: { complete: boolean; valid: boolean; empty: boolean; errors: ChangeEvent['errors']; maskSatisfied?: boolean } = {
    complete: false,
    valid: true,
    empty: true,
    errors: [],
  };
  cardMetadata?: { cardBrand: string; cardLast4?: string; cardBin?: string };
  private iframe?: HTMLIFrameElement;
  private initialized = false;
  private listeners = new Map<string, Set<(e: ElementEvent) => void>>();
  private options: Record<string, unknown>;
  private mounting?: { resolve: () => void; reject: (e: Error) => void };

  constructor(
    private readonly coffer: Coffer,
    readonly type: ElementType,
    options: Record<string, unknown> = {},
  ) {
    this.options = coffer.sanitizeOptions(options);
  }

  /** Puts the element's iframe in the container (a selector or an element); resolves once the frame is ready. */
  mount(target: string | Element): Promise<void> {
    if (this.mounted || this.iframe) return Promise.reject(cofferError('CofferConfigurationError', 'The element is already mounted'));
    const container = typeof target === 'string' ? document.querySelector(target) : target;
    if (!container) return Promise.reject(cofferError('CofferConfigurationError', `No element matches ${String(target)}`));
    const iframe = document.createElement('iframe');
    iframe.src = this.coffer.frameUrl(this.type);
    iframe.title = FRAME_TITLES[this.type];
    iframe.setAttribute('frameborder', '0');
    iframe.setAttribute('scrolling', 'no');
    iframe.setAttribute('allowtransparency', 'true');
    iframe.style.setProperty('border', '0');
    iframe.style.setProperty('width', '100%');
    iframe.style.setProperty('height', '44px');
    iframe.style.setProperty('display', 'block');
    iframe.style.setProperty('overflow', 'hidden');
    iframe.style.setProperty('color-scheme', 'normal');
    this.iframe = iframe;
    const done = new Promise<void>((resolve, reject) => {
      const timers: ReturnType<typeof setTimeout>[] = [];
      const failed = () => this.mounting?.reject(cofferError('CofferConfigurationError', 'The element frame did not load (is this site allowed to frame it?)'));
      timers.push(setTimeout(failed, LOAD_TIMEOUT_MS));
      iframe.addEventListener('load', () => timers.push(setTimeout(failed, READY_AFTER_LOAD_MS)));
      this.mounting = {
        resolve: () => {
          timers.forEach(clearTimeout);
          resolve();
        },
        reject: (e) => {
          timers.forEach(clearTimeout);
          this.mounting = undefined;
          reject(e);
        },
      };
    });
    container.appendChild(iframe);
    const win = iframe.contentWindow;
    if (win) {
      this.coffer.onHello(win, () => {
        this.coffer.register(win, { id: this.id, onMessage: (m) => this.onFrameMessage(m) });
        this.coffer.postTo(win, this.id, 'init', { elementType: this.type, channel: this.coffer.channel, options: this.options });
        this.initialized = true;
      });
    }
    return done;
  }

  private onFrameMessage(m: Envelope): void {
    switch (m.type) {
      case 'ready':
        this.mounted = true;
        this.mounting?.resolve();
        this.mounting = undefined;
        this.emit({ type: 'ready' });
        return;
      case 'change': {
        const e = (m.event ?? {}) as Omit<ChangeEvent, 'type'>;
        const event: ChangeEvent = {
          type: 'change',
          empty: !!e.empty,
          complete: !!e.complete,
          valid: e.valid !== false,
          errors: Array.isArray(e.errors) ? e.errors.map((x) => ({ targetId: String(x.targetId), type: x.type === 'invalid' ? 'invalid' : 'incomplete' })) : [],
        };
        if (typeof e.maskSatisfied === 'boolean') event.maskSatisfied = e.maskSatisfied;
        if (typeof e.cardBrand === 'string') {
          event.cardBrand = e.cardBrand;
          if (typeof e.cardLast4 === 'string' && /^\d{4}$/.test(e.cardLast4)) event.cardLast4 = e.cardLast4;
          if (typeof e.cardBin === 'string' && /^\d{6,8}$/.test(e.cardBin)) event.cardBin = e.cardBin;
          this.cardMetadata = { cardBrand: event.cardBrand, cardLast4: event.cardLast4, cardBin: event.cardBin };
        }
        this.metadata = { complete: event.complete, valid: event.valid, empty: event.empty, errors: event.errors, maskSatisfied: event.maskSatisfied };
        this.emit(event);
        return;
      }
      case 'focus':
      case 'blur':
        this.emit({ type: m.type, targetId: String(m.targetId) });
        return;
      case 'keydown':
        if (m.key !== 'Enter' && m.key !== 'Escape') return;
        this.emit({
          type: 'keydown',
          targetId: String(m.targetId),
          key: m.key,
          altKey: !!m.altKey,
          ctrlKey: !!m.ctrlKey,
          shiftKey: !!m.shiftKey,
          metaKey: !!m.metaKey,
        });
        return;
      case 'resize': {
        const h = Number(m.height);
        if (this.iframe && Number.isFinite(h) && h > 0 && h < 2000) this.iframe.style.setProperty('height', `${Math.ceil(h)}px`);
        return;
      }
    }
  }

  private emit(event: ElementEvent): void {
    for (const fn of [...(this.listeners.get(event.type) ?? [])]) {
      try {
        fn(event);
      } catch (e) {
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }

  on<T extends ElementEventType>(type: T, listener: (event: Extract<ElementEvent, { type: T }>) => void): Subscription {
    const set = this.listeners.get(type) ?? new Set();
    this.listeners.set(type, set);
    const fn = listener as (e: ElementEvent) => void;
    set.add(fn);
    return { unsubscribe: () => void set.delete(fn) };
  }

  update(options: Record<string, unknown>): Promise<void> {
    const clean = this.coffer.sanitizeOptions(options);
    this.options = { ...this.options, ...clean };
    this.send('update', { options: clean });
    return Promise.resolve();
  }

  clear(): void {
    this.send('clear');
  }

  focus(): void {
    this.iframe?.focus();
    this.send('focus');
  }

  blur(): void {
    this.send('blur');
  }

  unmount(): void {
    const win = this.iframe?.contentWindow;
    if (win) this.coffer.unregister(win);
    this.iframe?.remove();
    this.iframe = undefined;
    this.mounted = false;
    this.initialized = false;
    this.mounting?.reject(cofferError('CofferConfigurationError', 'The element was unmounted'));
    this.mounting = undefined;
  }

  /** For a card expiration date element: its month (a number) where a value goes. */
  month(): ElementPart {
    if (this.type !== 'cardExpirationDate') throw cofferError('CofferConfigurationError', 'month() is for cardExpirationDate elements');
    return new ElementPart(this, 'month');
  }

  /** For a card expiration date element: its four-digit year where a value goes. */
  year(): ElementPart {
    if (this.type !== 'cardExpirationDate') throw cofferError('CofferConfigurationError', 'year() is for cardExpirationDate elements');
    return new ElementPart(this, 'year');
  }

  private send(type: string, payload: Record<string, unknown> = {}): void {
    const win = this.iframe?.contentWindow;
    // after init (even before ready): the frame handles its messages in order
    if (win && this.initialized) this.coffer.postTo(win, this.id, type, payload);
  }
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> };

export class Coffer {
  readonly instance = randomId();
  readonly channel = randomId();
  private origin: string;
  /** set by the controller's hello: from then on the elements origin is final */
  private originPinned = false;
  private readonly frames = new Map<unknown, FrameRecord>();
  /** what to do when the iframe whose contentWindow is the key says hello (with the hello's origin) */
  private readonly hellos = new Map<unknown, (origin: string) => void>();
  private readonly elements = new Set<CofferElement>();
  private controller?: HTMLIFrameElement;
  private readonly pending = new Map<string, Pending>();

  // the controller frame answers with the API's reply, whose shape the published declarations give
  readonly tokens = { create: (payload: unknown, options?: RequestOptions) => this.request('tokens.create', payload, options) as Promise<TokenReply> };
  readonly tokenIntents = {
    create: (payload: unknown, options?: RequestOptions) => this.request('tokenIntents.create', payload, options) as Promise<TokenReply>,
  };
  readonly sessions = {
    create: (options?: RequestOptions) => this.request('sessions.create', undefined, options) as ReturnType<PublicCoffer['sessions']['create']>,
  };
  readonly tokenize = (payload: unknown, options?: RequestOptions) => this.request('tokenize', payload, options);

  constructor(
    readonly elementsBaseUrl: string,
    private readonly apiKey: string,
    private readonly apiBaseUrl: string | undefined,
    /** SHA-256 of apiKey (hex), named in every frame's address */
    private readonly keyHash: string,
  ) {
    this.origin = new URL(elementsBaseUrl).origin;
    window.addEventListener('message', (ev) => {
      if (isHello(ev.data)) {
        const onHello = ev.source ? this.hellos.get(ev.source) : undefined;
        if (onHello) onHello(ev.origin);
        return;
      }
      const hit = checkFrameMessage(ev, this.origin, this.instance, this.frames);
      if (hit) hit.frame.onMessage(hit.message);
    });
  }

  /** The origin of Coffer's frames: the loader's own, or the one its controller frame answered from (see protocol.ts). */
  get elementsOrigin(): string {
    return this.origin;
  }

  frameUrl(type: ElementType | 'controller'): string {
    return `${this.elementsBaseUrl}frames/${type}.html?k=${this.keyHash}`;
  }

  /** Runs `init` each time the frame in `win` says hello from the elements origin (again after a reload). */
  onHello(win: Window, init: () => void): void {
    this.hellos.set(win, (origin) => {
      if (origin === this.origin) init();
    });
  }

  /** Loads the hidden controller frame; resolves when it is ready. */
  start(): Promise<this> {
    return new Promise((resolve, reject) => {
      const iframe = document.createElement('iframe');
      iframe.src = this.frameUrl('controller');
      iframe.title = 'Coffer Elements';
      iframe.hidden = true;
      iframe.tabIndex = -1;
      iframe.setAttribute('aria-hidden', 'true');
      const timers: ReturnType<typeof setTimeout>[] = [];
      const fail = (message: string) => {
        timers.forEach(clearTimeout);
        reject(cofferError('CofferConfigurationError', message));
      };
      const notLoaded = 'Coffer Elements did not load (is this site allowed to frame the fields?)';
      timers.push(setTimeout(() => fail(notLoaded), LOAD_TIMEOUT_MS));
      iframe.addEventListener('load', () => timers.push(setTimeout(() => fail(notLoaded), READY_AFTER_LOAD_MS)));
      this.controller = iframe;
      (document.body ?? document.documentElement).appendChild(iframe);
      const win = iframe.contentWindow;
      if (!win) {
        fail('Coffer Elements could not make its frame');
        return;
      }
      this.hellos.set(win, (origin) => {
        // the first hello fixes the elements origin: the loader's own, or where a redirect took the frame
        if (!this.originPinned) {
          this.originPinned = true;
          if (origin !== this.origin && /^https?:\/\/[^/]+$/.test(origin)) this.origin = origin;
        }
        if (origin !== this.origin) return;
        this.register(win, {
          id: CONTROLLER_ID,
          onMessage: (m) => {
            if (m.type === 'ready') {
              timers.forEach(clearTimeout);
              resolve(this);
            } else if (m.type === 'error') {
              const e = (m.error ?? {}) as { message?: unknown };
              fail(typeof e.message === 'string' ? e.message : 'Coffer Elements refused the key');
            } else if (m.type === 'response') this.onResponse(m);
          },
        });
        this.postTo(win, CONTROLLER_ID, 'init', { channel: this.channel, apiKey: this.apiKey, apiBaseUrl: this.apiBaseUrl });
      });
    });
  }

  register(win: Window, record: FrameRecord): void {
    this.frames.set(win, record);
  }

  unregister(win: Window): void {
    this.frames.delete(win);
    this.hellos.delete(win);
  }

  postTo(win: Window, element: string, type: string, payload: Record<string, unknown> = {}): void {
    win.postMessage({ ...payload, coffer: PROTOCOL_VERSION, instance: this.instance, element, type }, this.origin);
  }

  createElement(type: ElementType, options: Record<string, unknown> = {}): CofferElement {
    if (!ELEMENT_TYPES.includes(type)) throw cofferError('CofferConfigurationError', `Unknown element type ${String(type)}`);
    const el = new CofferElement(this, type, options);
    this.elements.add(el);
    return el;
  }

  /** Options as the frame receives them: known keys only, elements replaced by their ids, structured-cloneable. */
  sanitizeOptions(options: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(options ?? {})) {
      if (!OPTION_KEYS.has(k) || v === undefined || typeof v === 'function') continue;
      if (k === 'cardNumberElement') {
        if (v instanceof CofferElement && this.elements.has(v) && (v.type === 'cardNumber' || v.type === 'card')) out[k] = v.id;
        else throw cofferError('CofferConfigurationError', 'cardNumberElement must be a cardNumber element of the same instance');
        continue;
      }
      out[k] = v;
    }
    return out;
  }

  private refOf = (x: unknown): ElementRef | undefined => {
    let el: unknown = x;
    let part: 'month' | 'year' | undefined;
    if (x instanceof ElementPart) {
      el = x.element;
      part = x.method;
    } else if (x && typeof x === 'object' && !Array.isArray(x) && (x as { element?: unknown }).element instanceof CofferElement) {
      // Basis Theory's ElementWrapper shape: { element, method }
      const m = (x as { method?: unknown }).method;
      el = (x as { element: unknown }).element;
      part = m === 'month' || m === 'year' ? m : undefined;
    }
    if (!(el instanceof CofferElement)) return undefined;
    if (!this.elements.has(el)) throw cofferError('CofferConfigurationError', 'An element of another init() cannot be used');
    if (!el.mounted) throw cofferError('CofferValidationError', 'An element of the request is not mounted');
    return part ? { element: el.id, part } : { element: el.id };
  };

  private request(op: string, payload: unknown, options: RequestOptions = {}): Promise<unknown> {
    let body: unknown;
    try {
      body = payload === undefined ? undefined : toTemplate(payload, this.refOf);
    } catch (e) {
      const err = e as CofferError;
      return Promise.reject(err.name?.startsWith('Coffer') ? err : cofferError('CofferValidationError', err.message));
    }
    const win = this.controller?.contentWindow;
    if (!win) return Promise.reject(cofferError('CofferConfigurationError', 'Coffer Elements is not initialised'));
    const id = randomId(8);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(cofferError('CofferApiError', 'The request timed out', { status: 0 }));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      const extra: Record<string, unknown> = { id, op, body };
      if (typeof options.apiKey === 'string') extra.apiKey = options.apiKey;
      if (typeof options.idempotencyKey === 'string') extra.idempotencyKey = options.idempotencyKey;
      if (typeof options.correlationId === 'string') extra.correlationId = options.correlationId;
      this.postTo(win, CONTROLLER_ID, 'request', extra);
    });
  }

  private onResponse(m: Envelope): void {
    const p = this.pending.get(String(m.id));
    if (!p) return;
    this.pending.delete(String(m.id));
    clearTimeout(p.timer);
    if (m.ok === true) p.resolve(m.result);
    else {
      const e = (m.error ?? {}) as Record<string, unknown>;
      const name = ['CofferApiError', 'CofferValidationError', 'CofferConfigurationError'].includes(String(e.name))
        ? (e.name as CofferError['name'])
        : 'CofferError';
      p.reject(cofferError(name, typeof e.message === 'string' ? e.message : 'The request failed', e));
    }
  }
}

/** The CofferElements global / module export, bound to the base URL the script was loaded from. */
export function makeCofferElements(scriptUrl: string | undefined) {
  const defaultBase = scriptUrl ? new URL('./', scriptUrl).href : undefined;
  return {
    version: PROTOCOL_VERSION,
    init(apiKey: string, options: InitOptions = {}): Promise<Coffer> {
      if (typeof apiKey !== 'string' || !apiKey) return Promise.reject(cofferError('CofferConfigurationError', 'An API key is required'));
      let base: string;
      try {
        const given = options.elementsBaseUrl ?? defaultBase;
        if (!given) throw new Error('unknown');
        base = new URL(given, location.href).href;
        if (!/^https?:$/.test(new URL(base).protocol)) throw new Error('protocol');
      } catch {
        return Promise.reject(
          cofferError('CofferConfigurationError', 'The elements base URL is not known: load elements.js from a URL or pass elementsBaseUrl'),
        );
      }
      if (!base.endsWith('/')) base += '/';
      // the frames' address names the key by its hash (crypto.subtle: https pages, or localhost)
      if (!globalThis.crypto?.subtle) return Promise.reject(cofferError('CofferConfigurationError', 'Coffer Elements needs a secure context (https)'));
      const finalBase = base;
      return sha256Hex(apiKey).then((keyHash) => new Coffer(finalBase, apiKey, options.apiBaseUrl, keyHash).start());
    },
  };
}

export type CofferElementsApi = ReturnType<typeof makeCofferElements>;
