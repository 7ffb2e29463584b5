// Forwards a card to a payment processor's HTTP API: POST <base_url>/charges with a bearer API key, the card
// detokenized server-side. The processor's answer comes back in `raw`; its failures map to the runtime's errors.
const {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  InvalidPaymentMethodError,
  InvalidReactorConfigurationError,
  RateLimitError,
  ServiceUnavailableError,
} = require('@coffer/reactor-runtime');

module.exports = async function (req) {
  const { base_url, api_key } = req.configuration;
  let url;
  try {
    url = new URL('charges', base_url.endsWith('/') ? base_url : base_url + '/');
  } catch {
    throw new InvalidReactorConfigurationError({ base_url: ['must be an absolute URL'] });
  }
  const { card, amount, currency, reference } = req.args;
  const payload = {
    amount,
    currency: currency.toUpperCase(),
    card: {
      number: card.number,
      ...(card.expiration_month !== undefined ? { expiration_month: card.expiration_month } : {}),
      ...(card.expiration_year !== undefined ? { expiration_year: card.expiration_year } : {}),
      ...(card.cvc !== undefined ? { cvc: card.cvc } : {}),
    },
    ...(reference !== undefined ? { reference } : {}),
  };
  let res;
  try {
    res = await fetch(url.toString(), {
      method: 'POST',
      headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(payload),
      timeout: 8000,
    });
  } catch {
    throw new ServiceUnavailableError('The payment processor could not be reached');
  }
  const text = await res.text();
  let body;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { text: text.slice(0, 2000) };
  }
  const message = body && typeof body === 'object' && (body.message || body.error || body.detail);
  const reason = typeof message === 'string' ? message : `The payment processor answered ${res.status}`;
  if (res.ok) return { raw: { status: res.status, body } };
  if (res.status === 401) throw new AuthenticationError(reason);
  if (res.status === 402) throw new InvalidPaymentMethodError(reason);
  if (res.status === 403) throw new AuthorizationError(reason);
  if (res.status === 429) throw new RateLimitError(reason);
  if (res.status >= 500) throw new ServiceUnavailableError(reason);
  throw new BadRequestError(reason);
};
