import { outcomeFromIsolate } from './outcome';

/** A formula's CustomHttpResponseError as the isolate serializes it (`E` + its JSON). */
const custom = (headers: Record<string, string>) => `E${JSON.stringify({ kind: 'custom', status: 418, headers, body: { ok: true } })}`;

describe('a custom response leaving the sandbox', () => {
  it('keeps no hop-by-hop header: the same list as every hop Coffer relays (libs/egress), plus the framing it redoes', () => {
    const outcome = outcomeFromIsolate(
      custom({
        'X-Teapot': 'yes',
        'Content-Length': '1',
        'Transfer-Encoding': 'chunked',
        Connection: 'close, X-Secret-Hop',
        'X-Secret-Hop': 'smuggled',
        'Proxy-Authenticate': 'Basic',
        'Proxy-Authorization': 'Basic eA==',
        'HTTP2-Settings': 'AAMAAABkAAQAAP__',
        'Keep-Alive': 'timeout=5',
        Upgrade: 'h2c',
        TE: 'trailers',
        Trailer: 'X-Teapot',
      }),
      1 << 20,
    );
    expect(outcome).toMatchObject({ ok: false, custom: { status: 418, headers: { 'X-Teapot': 'yes' } } });
    expect(Object.keys((outcome as { custom: { headers: Record<string, string> } }).custom.headers)).toEqual(['X-Teapot']);
  });
});
