import type { OperationRow } from '@coffer/contracts';

/**
 * What is wrong between the rows a service owns and the handlers it registered, one line each (none: all is well):
 * a row with no handler (its callers would wait for a reply until their deadline, "no responders" at best), a row
 * claimed by two methods (Nest keeps the last one and drops the other without a word), and a handler on a subject
 * the service does not own (a row moved to another service and left behind, or a typo).
 */
export function handlerCoverageProblems(rows: readonly OperationRow[], served: Iterable<string>, declared: ReadonlyMap<string, readonly string[]>): string[] {
  const owned = new Set(rows.map((r) => r.subject));
  const servedSet = new Set(served);
  const problems: string[] = [];
  for (const subject of owned) {
    if (!servedSet.has(subject)) problems.push(`${subject}: no handler`);
    const methods = declared.get(subject) ?? [];
    if (methods.length > 1) problems.push(`${subject}: ${methods.length} handlers (${methods.join(', ')}); a row has exactly one`);
  }
  for (const subject of servedSet) if (!owned.has(subject)) problems.push(`${subject}: handled here, but not a row of this service`);
  return problems;
}

/** Throws, naming every problem, unless each of `rows` has exactly one handler and every handler serves one of them. */
export function assertHandlerCoverage(
  service: string,
  rows: readonly OperationRow[],
  served: Iterable<string>,
  declared: ReadonlyMap<string, readonly string[]>,
): void {
  const problems = handlerCoverageProblems(rows, served, declared);
  if (problems.length) throw new Error(`${service}: its operation rows and handlers disagree:\n  ${problems.join('\n  ')}`);
}
