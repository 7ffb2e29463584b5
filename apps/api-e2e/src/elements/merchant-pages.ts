/**
 * The merchant's side of the Elements tests: a checkout page served from another site than Coffer's (localhost, while
 * Coffer's origins are 127.0.0.1), as a merchant would write it, and a hostile variant of it that tries every way a
 * page's own script could get at a card number: every `message` event, every frame's document, the DOM, and every
 * request the page makes (fetch and XMLHttpRequest wrapped before the loader runs).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Instrumentation the hostile page runs before anything else: what it collects lands in `window.__loot`, which the
 * test searches for the card number and the security code.
 */
const HOSTILE_SCRIPT = `
window.__loot = [];
const keep = (what, value) => { try { window.__loot.push(what + ' ' + (typeof value === 'string' ? value : JSON.stringify(value))); } catch (e) { window.__loot.push(what + ' ' + String(value)); } };
addEventListener('message', (ev) => keep('message from ' + ev.origin, ev.data), true);
const realFetch = window.fetch;
window.fetch = function (input, init) { keep('fetch', [String(input && input.url || input), init && init.body]); return realFetch.apply(this, arguments); };
const realOpen = XMLHttpRequest.prototype.open, realSend = XMLHttpRequest.prototype.send;
XMLHttpRequest.prototype.open = function (m, u) { keep('xhr', [m, String(u)]); return realOpen.apply(this, arguments); };
XMLHttpRequest.prototype.send = function (b) { keep('xhr body', b); return realSend.apply(this, arguments); };
const realPost = Window.prototype.postMessage;
window.__walk = () => {
  keep('dom', document.documentElement.outerHTML);
  for (const input of document.querySelectorAll('input')) keep('page input', input.value);
  for (let i = 0; i < window.frames.length; i++) {
    try { keep('frame ' + i, window.frames[i].document.documentElement.outerHTML); } catch (e) { keep('frame ' + i + ' refused', e.name); }
    try { keep('frame ' + i + ' inputs', [...window.frames[i].document.querySelectorAll('input')].map((x) => x.value)); } catch (e) {}
    try { keep('frame ' + i + ' storage', window.frames[i].localStorage.length); } catch (e) {}
  }
  keep('storage', JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
};
`;

export interface MerchantSite {
  /** http://localhost:<port> */
  origin: string;
  /** the checkout page (hostile: with the instrumentation above) for a public key */
  checkout(opts: { key: string; hostile?: boolean; extra?: string }): string;
  /** any page of the merchant's, as given */
  serve(html: string): string;
  /** a page of a third site (127.0.0.2) that forges messages to its parent's frames */
  evilFrameUrl: string;
  close(): Promise<void>;
}

/**
 * The page: the loader from Coffer's Elements origin, a form with a field of the merchant's own before and a button
 * after the card fields (the tab order test), and `window.shop` for the test to drive it, as a checkout's own code would.
 */
function checkoutPage(elementsUrl: string, key: string, hostile: boolean, extra: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout</title>
${hostile ? `<script>${HOSTILE_SCRIPT}</script>` : ''}
<script src="${elementsUrl}/elements/v1/elements.js"></script>
<style>body{font-family:sans-serif;margin:8px;max-width:600px} .field{margin:8px 0}</style>
</head><body><main>
<h1>Checkout</h1>
<form id="pay" onsubmit="return false">
<label for="email">Email</label> <input id="email" type="email" autocomplete="email">
<div class="field" id="card"></div>
<div class="field" id="number"></div>
<div class="field" id="expiry"></div>
<div class="field" id="cvc"></div>
<div class="field" id="name"></div>
<button id="submit" type="submit">Pay</button>
</form></main>
<script>
window.shop = { events: [], key: ${JSON.stringify(key)} };
window.shop.start = async (apiKey) => { window.shop.coffer = await CofferElements.init(apiKey || window.shop.key); return true; };
window.shop.mount = async (type, target, options) => {
  const el = window.shop.coffer.createElement(type, options || {});
  for (const ev of ['ready', 'change', 'focus', 'blur', 'keydown']) el.on(ev, (e) => window.shop.events.push({ element: target, ev, e: JSON.parse(JSON.stringify(e || {})) }));
  await el.mount('#' + target);
  window.shop[target] = el;
  return true;
};
${extra}
</script></body></html>`;
}

const EVIL_FRAME = `<!doctype html><title>ad</title><script>
// a third party on the merchant's page: it forges every kind of message at its siblings (Coffer's frames) and its parent
addEventListener('message', (ev) => { if (ev.data && ev.data.forge) {
  const { instance, element } = ev.data.forge;
  for (let i = 0; i < parent.frames.length; i++) {
    const f = parent.frames[i];
    if (f === window) continue;
    for (const type of ['init', 'request', 'clear', 'update']) {
      f.postMessage({ coffer: 1, instance, element, type, id: 'forged', op: 'tokens.create', body: { type: 'token', data: 'forged' }, channel: 'forged', apiKey: 'forged', options: {} }, '*');
    }
  }
  parent.postMessage({ coffer: 1, instance, element, type: 'change', event: { complete: true, empty: false, valid: true, errors: [], forged: true } }, '*');
  parent.postMessage({ coffer: 1, instance, element: 'controller', type: 'response', id: ev.data.forge.pending, ok: true, result: { id: 'forged' } }, '*');
}});
</script>`;

export async function startMerchantSite(elementsUrl: string): Promise<MerchantSite> {
  const pages = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const page = url.pathname === '/evil' ? EVIL_FRAME : pages.get(url.pathname);
    if (!page) return void res.writeHead(404).end();
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(page);
  });
  // the merchant's site is localhost; the third party's 127.0.0.2: two sites, neither Coffer's (127.0.0.1)
  await new Promise<void>((r) => server.listen(0, '0.0.0.0', () => r()));
  const port = (server.address() as AddressInfo).port;
  let n = 0;
  return {
    origin: `http://localhost:${port}`,
    checkout({ key, hostile = false, extra = '' }) {
      const path = `/checkout-${++n}`;
      pages.set(path, checkoutPage(elementsUrl, key, hostile, extra));
      return `http://localhost:${port}${path}`;
    },
    serve(html) {
      const path = `/page-${++n}`;
      pages.set(path, html);
      return `http://localhost:${port}${path}`;
    },
    evilFrameUrl: `http://127.0.0.2:${port}/evil`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
