/**
 * Token expiry formats (spec "Token expiration"): `M/D/YYYY h:mm:ss AM/PM +hh:mm` (offset optional → UTC),
 * `M/D/YYYY` (00:00 UTC), or ISO 8601 (no offset → UTC). Returns null when the text is none of these.
 */
const US_DATE_TIME = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(AM|PM)(?:\s*([+-])(\d{2}):?(\d{2}))?$/i;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export function parseExpiresAt(text: string): Date | null {
  const s = text.trim();
  let m = US_DATE.exec(s);
  if (m) return utc(+m[3], +m[1], +m[2], 0, 0, 0, 0, 0);
  m = US_DATE_TIME.exec(s);
  if (m) {
    let hour = +m[4];
    if (hour < 1 || hour > 12) return null;
    const pm = m[7].toUpperCase() === 'PM';
    if (hour === 12) hour = pm ? 12 : 0;
    else if (pm) hour += 12;
    const offset = m[8] ? (m[8] === '-' ? -1 : 1) * (+m[9] * 60 + +m[10]) : 0;
    return utc(+m[3], +m[1], +m[2], hour, +m[5], +(m[6] ?? 0), 0, offset);
  }
  m = ISO.exec(s);
  if (m) {
    let offset = 0;
    if (m[8] && m[8].toUpperCase() !== 'Z') {
      const sign = m[8][0] === '-' ? -1 : 1;
      const digits = m[8].slice(1).replace(':', '');
      offset = sign * (+digits.slice(0, 2) * 60 + +digits.slice(2, 4));
    }
    const ms = m[7] ? Math.round(Number(`0.${m[7]}`) * 1000) : 0;
    return utc(+m[1], +m[2], +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), ms, offset);
  }
  return null;
}

function utc(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number, offsetMinutes: number): Date | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const check = new Date(t);
  if (check.getUTCDate() !== d || check.getUTCMonth() !== mo - 1) return null;
  return new Date(t - offsetMinutes * 60_000);
}
