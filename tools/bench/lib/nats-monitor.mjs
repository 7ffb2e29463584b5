// Messages per request on NATS, from nats-server's monitoring endpoint (`-m`, throwaway system only): /connz lists
// every client connection with the messages it published (in_msgs) and received (out_msgs), named after its owner
// (`gateway-rpc`, `token-service`, `token-service-events`...), so a scenario's traffic can be split per connection.

/** Messages published into the server per connection name (replicas of a service add up), with the totals. */
export async function natsSnapshot(monitorUrl) {
  const res = await fetch(`${monitorUrl}/connz?limit=1024`);
  const body = await res.json();
  const byName = {};
  let published = 0;
  let delivered = 0;
  for (const c of body.connections ?? []) {
    const name = c.name || `cid-${c.cid}`;
    byName[name] = (byName[name] ?? 0) + c.in_msgs;
    published += c.in_msgs;
    delivered += c.out_msgs;
  }
  return { published, delivered, byName };
}

/** Per-request message counts between two snapshots; connections that published nothing are left out. */
export function natsPerOp(before, after, ops) {
  if (!before || !after || !ops) return undefined;
  const per = (a, b) => +((a - (b ?? 0)) / ops).toFixed(2);
  const by = {};
  for (const [name, n] of Object.entries(after.byName)) {
    const v = per(n, before.byName[name]);
    if (v > 0) by[name] = v;
  }
  return { published: per(after.published, before.published), delivered: per(after.delivered, before.delivered), by };
}
