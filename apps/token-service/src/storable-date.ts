/**
 * Dates a read path may send to PostgreSQL. JavaScript parses years from -271821 to +275760; PostgreSQL's timestamptz
 * refuses years before 4713 BC (an error, that is a 500, if it ever reaches it). Coffer takes the years ISO 8601
 * writes with four digits, 0001 to 9999: every date a token or an audit event can carry, with room to spare, and a
 * range the caller can read in the error.
 */
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

export const STORABLE_DATE_MESSAGE = 'must be an ISO 8601 date-time between the years 0001 and 9999';

/** The date `value` names, or null when it is no date or one outside the years 0001–9999. */
export function storableDate(value: string): Date | null {
  const t = Date.parse(value);
  if (Number.isNaN(t) || t < EARLIEST || t > LATEST) return null;
  return new Date(t);
}
