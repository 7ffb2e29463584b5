// One keep-alive connection pool to the target; a call fails (and the load loop counts an error) on any status
// other than the one expected, so a benchmark of 4xx answers cannot pass for a fast one.
// Several base URLs (gateway replicas) take the calls in turn, as a round-robin load balancer would.
import { Pool } from 'undici';

export function httpClient(baseUrls, connections = 64) {
  const pools = [baseUrls].flat().map((url) => new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 60_000 }));
  let next = 0;
  async function call(method, path, { key, body, expect, contentType = 'application/json', headers: extra = {} } = {}) {
    const pool = pools[next++ % pools.length];
    const headers = { 'content-type': contentType, ...extra };
    if (key) headers['svc-api-key'] = key;
    const res = await pool.request({ method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.body.text();
    const ok = expect ? res.statusCode === expect : res.statusCode < 300;
    if (!ok) throw new Error(`${method} ${path.split('?')[0]}: ${res.statusCode} ${text.slice(0, 160)}`);
    return text ? JSON.parse(text) : undefined;
  }
  return { call, close: () => Promise.all(pools.map((p) => p.close())) };
}
