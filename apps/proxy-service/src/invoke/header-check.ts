import { ProblemError, badRequest } from '@coffer/contracts';

/** RFC 9110 field names (tokens) and values: visible Latin-1, spaces and tabs (what Node's HTTP writer accepts). */
const NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Whose headers are checked: the one at fault decides the answer (the caller's input 400, anything else 502). */
export type HeaderSource = 'caller' | 'request transforms' | 'response transforms' | 'destination';

/**
 * Refuses headers HTTP cannot carry (a line break, a control character, a character beyond Latin-1) before they are
 * sent or answered: otherwise the HTTP client or the gateway's writer fails on them with a bare 500. The problem
 * names the header, never its value (it may hold detokenized data).
 */
export function checkHeaders(headers: [string, string][], source: HeaderSource, host: string): void {
  const bad = headers.find(([name, value]) => !NAME.test(name) || !VALUE.test(value));
  if (!bad) return;
  const which = NAME.test(bad[0]) ? `the value of ${bad[0]} is` : 'a header name is';
  const message = `${which} not valid in HTTP (line breaks, control characters and characters beyond Latin-1 are not)`;
  if (source === 'caller') throw badRequest('The proxy request is invalid', { headers: [`after detokenization, ${message}`] });
  const whose = source === 'destination' ? `The answer of ${host}` : `The proxy's ${source}`;
  throw new ProblemError(502, `${whose} produced an invalid header`, { headers: [message] });
}
