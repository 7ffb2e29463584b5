// The script of every Coffer frame (frames/<type>.html and frames/controller.html). The protocol: ../shared/protocol.ts.
import { updatable } from './fixed-options';
import { checkCardNumber } from '../shared/card';
import { channelName, checkParentMessage, parentHints, PROTOCOL_VERSION, sha256Hex, type Envelope, type ParentLink } from '../shared/protocol';
import {
  collectRefs,
  containsValue,
  dropFingerprints,
  idsAt,
  type ReplyPath,
  resolveTokenBody,
  resolveTokenizeBody,
  stripData,
  TemplateError,
  type ElementValue,
} from '../shared/template';
import type { AnyElementOptions, CardDetails, ElementType } from '../shared/types';
import { ElementUi } from './fields';
import { applyDeclarations, containerDeclarations, loadFonts } from './style';

const API_URL_PLACEHOLDER = '%COFFER_API_URL%';
const COLLECT_TIMEOUT_MS = 5000;

const kind = (document.body.dataset.element ?? '') as ElementType | 'controller';
const link: ParentLink = {};
const hints = parentHints(location as unknown as { ancestorOrigins?: ArrayLike<string> }, document.referrer);
let channel: BroadcastChannel | undefined;
let ui: ElementUi | undefined;
let apiKey: string | undefined;
let initApiBaseUrl: string | undefined;
/** the SHA-256 of the key this frame was served for (`?k=`): the server chose the frame's CSP from its tenant */
const servedKeyHash = new URLSearchParams(location.search).get('k') ?? undefined;

function post(type: string, payload: Record<string, unknown> = {}): void {
  if (!link.origin || !link.instance || !link.element) return;
  window.parent.postMessage({ ...payload, coffer: PROTOCOL_VERSION, instance: link.instance, element: link.element, type }, link.origin);
}

function broadcast(type: string, payload: Record<string, unknown>): void {
  channel?.postMessage({ ...payload, coffer: PROTOCOL_VERSION, type });
}

// ---- element frames ---------------------------------------------------------------------------------------------

let lastBrand: string | undefined;
let linkedNumber: string | undefined;

function initElement(msg: Envelope): void {
  const options = (msg.options ?? {}) as AnyElementOptions;
  linkedNumber = typeof options.cardNumberElement === 'string' ? options.cardNumberElement : undefined;
  const root = document.getElementById('root') ?? document.body;
  ui = new ElementUi(kind as ElementType, root, post, (brand) => {
    if (brand === lastBrand) return;
    lastBrand = brand;
    broadcast('brand', { element: link.element, brand });
  });
  ui.build(options);
  styleContainer(options);
  if (linkedNumber) broadcast('brand?', { element: linkedNumber });
  observeSize();
  post('ready');
  ui.emitChange(true);
}

function styleContainer(options: AnyElementOptions): void {
  applyDeclarations(document.body, containerDeclarations(options.style));
  loadFonts(options.style?.fonts);
}

function observeSize(): void {
  let last = 0;
  const report = () => {
    const h = Math.ceil(document.body.getBoundingClientRect().height);
    if (h !== last) {
      last = h;
      post('resize', { height: h });
    }
  };
  new ResizeObserver(report).observe(document.body);
  report();
}

function onChannelMessage(ev: MessageEvent): void {
  const m = ev.data as Record<string, unknown>;
  if (!m || m.coffer !== PROTOCOL_VERSION || typeof m.type !== 'string') return;
  if (kind === 'controller') {
    if (m.type === 'value') onValue(m);
    return;
  }
  if (!ui) return;
  if (m.type === 'collect' && Array.isArray(m.elements) && m.elements.includes(link.element)) {
    const { state, value } = ui.value();
    broadcast('value', { id: m.id, element: link.element, kind, state, ...(value !== undefined ? { value } : {}) });
  } else if (m.type === 'brand?' && m.element === link.element && lastBrand !== undefined) {
    broadcast('brand', { element: link.element, brand: lastBrand });
  } else if (m.type === 'brand' && linkedNumber && m.element === linkedNumber && typeof m.brand === 'string') {
    ui.setLinkedBrand(m.brand);
  }
}

// ---- the controller frame ---------------------------------------------------------------------------------------

interface Pending {
  waiting: Set<string>;
  values: Map<string, ElementValue>;
  kinds: Map<string, string>;
  errors: { targetId: string; type: string }[];
  done: (err?: Error) => void;
}
const pending = new Map<string, Pending>();

function onValue(m: Record<string, unknown>): void {
  const p = pending.get(String(m.id));
  const element = String(m.element);
  if (!p || !p.waiting.has(element)) return;
  p.waiting.delete(element);
  if (typeof m.kind === 'string') p.kinds.set(element, m.kind);
  const state = m.state as { errors?: { targetId: string; type: string }[] } | undefined;
  if (m.value !== undefined) p.values.set(element, m.value as ElementValue);
  else p.errors.push(...(state?.errors?.length ? state.errors : [{ targetId: element, type: 'incomplete' }]));
  if (p.waiting.size === 0) p.done();
}

class FrameError extends Error {
  constructor(
    name: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = name;
  }
}

function collect(elements: Set<string>): Promise<{ values: Map<string, ElementValue>; kinds: Map<string, string> }> {
  const id = crypto.randomUUID();
  return new Promise((resolve, reject) => {
    const p: Pending = {
      waiting: new Set(elements),
      values: new Map(),
      kinds: new Map(),
      errors: [],
      done: (err) => {
        clearTimeout(timer);
        pending.delete(id);
        if (err) reject(err);
        else if (p.errors.length > 0) {
          const details: Record<string, { type: string }> = {};
          for (const e of p.errors) details[e.targetId] = { type: e.type };
          reject(new FrameError('CofferValidationError', 'Validation error', { details, validation: p.errors }));
        } else resolve({ values: p.values, kinds: p.kinds });
      },
    };
    const timer = setTimeout(() => p.done(new FrameError('CofferValidationError', 'An element of the request is not mounted', {})), COLLECT_TIMEOUT_MS);
    pending.set(id, p);
    broadcast('collect', { id, elements: [...elements] });
  });
}

function apiBase(): string {
  const meta = document.querySelector('meta[name="coffer-api-url"]')?.getAttribute('content')?.trim();
  // the server's value wins: the page chooses the API only where the server did not fill it in (local tests)
  const base = meta && meta !== API_URL_PLACEHOLDER ? meta : initApiBaseUrl;
  if (!base) throw new FrameError('CofferConfigurationError', 'No API base URL: the server did not set coffer-api-url and init() had no apiBaseUrl');
  const url = new URL(base, location.href);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new FrameError('CofferConfigurationError', 'The API base URL must be http(s)');
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

const ROUTES: Record<string, string> = {
  'tokens.create': 'tokens',
  tokenize: 'tokenize',
  'tokenIntents.create': 'token-intents',
  'sessions.create': 'sessions',
};

/** Brand, last 4, BIN (8 digits from 16, as Coffer's card_bin) and expiry of a card the frame tokenizes. */
function cardDetails(data: unknown): CardDetails | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const d = data as Record<string, unknown>;
  if (typeof d.number !== 'string') return undefined;
  const digits = d.number;
  return {
    brand: checkCardNumber(digits, { skipLuhnValidation: true }).brand,
    last4: digits.slice(-4),
    bin: digits.slice(0, digits.length >= 16 ? 8 : 6),
    ...(typeof d.expiration_month === 'number' ? { expiration_month: d.expiration_month } : {}),
    ...(typeof d.expiration_year === 'number' ? { expiration_year: d.expiration_year } : {}),
  };
}

async function handleRequest(msg: Envelope): Promise<unknown> {
  const op = String(msg.op);
  const route = ROUTES[op];
  if (!route) throw new FrameError('CofferConfigurationError', `Unknown operation ${op}`);
  const key = typeof msg.apiKey === 'string' && msg.apiKey ? msg.apiKey : apiKey;
  if (!key) throw new FrameError('CofferConfigurationError', 'No API key');
  // another key for one call: a session key (its tenant authorized it from its backend) or the key the frame is for
  if (key !== apiKey && !key.startsWith('skey_') && (await sha256Hex(key)) !== servedKeyHash) {
    throw new FrameError('CofferConfigurationError', 'This key is not the one the fields were loaded for: use a session key or init() again');
  }
  const refs = collectRefs(msg.body);
  const { values, kinds } = refs.size > 0 ? await collect(refs) : { values: new Map<string, ElementValue>(), kinds: new Map<string, string>() };
  let body: unknown;
  const bare: ReplyPath[] = [];
  try {
    if (op === 'tokenize') body = resolveTokenizeBody(msg.body, values, kinds, bare);
    else if (op === 'sessions.create') body = undefined;
    else body = resolveTokenBody(msg.body, values, kinds, op === 'tokens.create');
  } catch (e) {
    if (e instanceof TemplateError) throw new FrameError('CofferValidationError', e.message, {});
    throw e;
  }
  const headers: Record<string, string> = { 'SVC-API-KEY': key, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (typeof msg.idempotencyKey === 'string' && msg.idempotencyKey) headers['SVC-IDEMPOTENCY-KEY'] = msg.idempotencyKey;
  if (typeof msg.correlationId === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(msg.correlationId)) headers['SVC-TRACE-ID'] = msg.correlationId;
  let res: Response;
  try {
    res = await fetch(apiBase() + route, {
      method: 'POST',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
      mode: 'cors',
    });
  } catch (e) {
    if (e instanceof FrameError) throw e;
    throw new FrameError('CofferApiError', 'The API could not be reached', { status: 0 });
  }
  const text = await res.text();
  let reply: unknown;
  try {
    reply = text ? JSON.parse(text) : undefined;
  } catch {
    reply = undefined;
  }
  if (!res.ok) {
    const leaked = containsValue(reply, values.values());
    const title =
      reply && typeof reply === 'object' && typeof (reply as { title?: unknown }).title === 'string' ? (reply as { title: string }).title : res.statusText;
    throw new FrameError('CofferApiError', title || `HTTP ${res.status}`, { status: res.status, data: leaked ? undefined : reply });
  }
  let result = stripData(reply);
  // what is left must not quote a value (an id computed from the data, say): the page would see it
  if (containsValue(result, values.values())) {
    throw new FrameError('CofferApiError', 'The reply held a value typed in an element and was withheld (an id expression?)', { status: res.status });
  }
  // a bare element of a tokenize call is shown by its id, as tokenize shows a bare value
  if (bare.length) result = idsAt(result, bare);
  // no fingerprint of a value typed in an element reaches the page: it could compare it with those of its guesses
  if (refs.size > 0) result = dropFingerprints(result);
  if (op === 'sessions.create' && result && typeof result === 'object') {
    const r = result as Record<string, unknown>;
    result = { ...r, sessionKey: r.session_key, expiresAt: r.expires_at };
  }
  if ((op === 'tokens.create' || op === 'tokenIntents.create') && result && typeof result === 'object' && !(result as Record<string, unknown>).card) {
    const spec = body as Record<string, unknown>;
    const card = spec.type === 'card' ? cardDetails(spec.data) : undefined;
    if (card) result = { ...(result as Record<string, unknown>), card };
  }
  return result;
}

/** The key must be the one the frame's address names (the frame's CSP is that key's tenant's). */
async function initController(msg: Envelope): Promise<void> {
  const key = typeof msg.apiKey === 'string' ? msg.apiKey : '';
  if (!key || !servedKeyHash || (await sha256Hex(key)) !== servedKeyHash) {
    post('error', { error: { name: 'CofferConfigurationError', message: 'The fields were not loaded for this key' } });
    return;
  }
  apiKey = key;
  initApiBaseUrl = typeof msg.apiBaseUrl === 'string' ? msg.apiBaseUrl : undefined;
  post('ready');
}

// ---- messages from the page -------------------------------------------------------------------------------------

window.addEventListener('message', (ev) => {
  const msg = checkParentMessage(ev, window.parent === window ? undefined : window.parent, link, hints);
  if (!msg) return;
  switch (msg.type) {
    case 'init':
      if (channel) return;
      if (typeof msg.channel !== 'string' || !/^[0-9a-f]{32}$/.test(msg.channel)) return;
      channel = new BroadcastChannel(channelName(msg.channel));
      channel.onmessage = onChannelMessage;
      if (kind === 'controller') void initController(msg);
      else initElement(msg);
      return;
    case 'update':
      if (ui && msg.options && typeof msg.options === 'object') {
        ui.update(updatable(msg.options as AnyElementOptions));
        styleContainer(ui.options);
      }
      return;
    case 'clear':
      ui?.clear();
      return;
    case 'focus':
      ui?.focus();
      return;
    case 'blur':
      ui?.blur();
      return;
    case 'request':
      if (kind !== 'controller') return;
      handleRequest(msg).then(
        (result) => post('response', { id: msg.id, ok: true, result }),
        (e: unknown) => {
          const err = e instanceof FrameError ? e : new FrameError('CofferError', 'The request failed');
          // the message of an unexpected error is not passed on: it could quote a value
          post('response', { id: msg.id, ok: false, error: { name: err.name, message: err.message, ...err.extra } });
        },
      );
      return;
  }
});

// the first word to the parent, which answers with init (see the protocol): nothing in it, so '*' is fine
if (window.parent !== window) window.parent.postMessage({ coffer: PROTOCOL_VERSION, type: 'hello' }, '*');
