// The call path that led to one moment in a service (request-files.mjs: the gateway writing a request to the bus,
// token-service sending a statement to PostgreSQL): the frames of a `Debugger.paused` event and of its asynchronous
// parents — what V8 records across `await`, and Node across timers and queued callbacks, once the inspector's
// `Debugger.setAsyncCallStackDepth` is set — each named by where it was written (profile-sites.mjs siteOf).

/**
 * The frames of a paused event, innermost first, its asynchronous parents' after its own, as siteOf takes them.
 * `scripts`: URL by script id, from the session's `Debugger.scriptParsed` events (a paused frame's own `url` is
 * deprecated and comes empty; the asynchronous parents' frames carry theirs).
 */
export function pausedFrames(paused, scripts) {
  const frames = paused.callFrames.map((f) => ({
    url: f.url || scripts.get(f.location.scriptId) || '',
    functionName: f.functionName,
    lineNumber: f.location.lineNumber,
    columnNumber: f.location.columnNumber,
  }));
  for (let parent = paused.asyncStackTrace; parent; parent = parent.parent) frames.push(...parent.callFrames);
  return frames;
}

const isRepositoryFile = (site) => /^(apps|libs)\/[^/]+\/src\//.test(site);

/**
 * The repository files on a call path (`sites`, innermost first, as pausedFrames gives them mapped), outermost first
 * and each once, from where the library `from` hands the work to Coffer's code (the innermost frame of `from`: Nest's
 * router calling a route's handler, the NATS client delivering a service's message) to the library `to` (the moment
 * looked for: the NATS client publishing, pg sending a statement), through `via` when given (the RPC client's
 * publish, not the rate limiter's). `before`: Coffer's files outside of that handover (the gateway's Fastify hooks).
 * Undefined when the path holds no frame of `to`, of `via` or of `from`: not the moment looked for (another write of
 * the same socket function, work the request did not start).
 */
export function callPath(sites, { from, via, to }) {
  if (!sites.includes(to) || (via !== undefined && !sites.includes(via))) return undefined;
  const outerFirst = [...sites].reverse();
  const handover = outerFirst.lastIndexOf(from);
  if (handover === -1) return undefined;
  const files = (list) => [...new Set(list.filter(isRepositoryFile))];
  return { before: files(outerFirst.slice(0, handover)), path: files(outerFirst.slice(handover + 1)) };
}
