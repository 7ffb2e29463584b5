// Re-tokenizes a card with a new expiry (a reissued card keeps its number): the new token is created with the
// Reactor's Application when it has one, else with the caller's key, and returned in `tokens.card`.
const { BadRequestError } = require('@coffer/reactor-runtime');

module.exports = async function (req) {
  const { card, expiration_month, expiration_year } = req.args;
  const errors = {};
  if (!Number.isInteger(expiration_month) || expiration_month < 1 || expiration_month > 12) errors.expiration_month = ['must be an integer between 1 and 12'];
  if (!Number.isInteger(expiration_year) || expiration_year < 1000 || expiration_year > 9999) errors.expiration_year = ['must be a four-digit year'];
  if (!errors.expiration_month && !errors.expiration_year) {
    const now = new Date();
    const year = now.getUTCFullYear();
    if (expiration_year < year || (expiration_year === year && expiration_month < now.getUTCMonth() + 1))
      errors.expiration_year = ['the new expiry lies in the past'];
  }
  if (Object.keys(errors).length) throw new BadRequestError(errors);
  const data = { number: card.number, expiration_month, expiration_year };
  if (card.cvc !== undefined) data.cvc = card.cvc;
  return {
    tokenize: { card: { type: 'card', data } },
    raw: { last4: String(card.number).slice(-4), expiration_month, expiration_year },
  };
};
