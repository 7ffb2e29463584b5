import { RE2JS } from 're2js';

/**
 * The mirrored service's regex mask: for every match of `expression`, each occurrence of a capture group's value
 * inside the matched section is replaced by `replacement`, one per character. RE2 matches in linear time, so a
 * management user's expression cannot make a large answer take for ever; `checkBudget` throws once the call's
 * time is spent.
 */
export function maskText(text: string, expression: string, replacement: string, checkBudget: () => void = () => undefined): string {
  const matcher = RE2JS.compile(expression).matcher(text);
  let out = '';
  let at = 0;
  let found = 0;
  while (matcher.find()) {
    // a large answer has many matches: the call's budget is checked every 256 of them, not only between steps
    if (++found % 256 === 0) checkBudget();
    const start = matcher.start();
    const end = matcher.end();
    if (end === start) continue;
    let section = text.slice(start, end);
    for (let g = 1; g <= matcher.groupCount(); g++) {
      const value = matcher.group(g);
      if (value) section = section.split(value).join(replacement.repeat([...value].length));
    }
    out += text.slice(at, start) + section;
    at = end;
  }
  return out + text.slice(at);
}
