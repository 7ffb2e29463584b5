import { decodeReply, encodeReply } from './wire-format';

describe('wire format: replies with bytes', () => {
  const answer = { status: 201, headers: [['content-type', 'image/png']], body: Buffer.from([0, 1, 2, 255, 0x7b]) };

  it('carries a top-level bytes body as raw bytes after the JSON, for a caller that reads them', () => {
    const frame = encodeReply(answer, true);
    // the bytes are in the frame as they are, not base64 inside JSON
    expect(Buffer.from(frame).subarray(-5)).toEqual(answer.body);
    expect(Buffer.from(frame).toString('latin1')).not.toContain(answer.body.toString('base64'));
    const reply = decodeReply<typeof answer>(frame);
    expect('ok' in reply && reply.ok).toEqual({ status: 201, headers: [['content-type', 'image/png']], body: answer.body });
    expect('ok' in reply && Buffer.isBuffer(reply.ok.body)).toBe(true);
  });

  it('costs the bytes and a few header bytes, not a third more', () => {
    const big = { status: 200, headers: [], body: Buffer.alloc(4 * 1024 * 1024, 7) };
    expect(encodeReply(big, true).length).toBeLessThan(big.body.length + 100);
  });

  it('gives a caller that did not ask for bytes the body as base64 text, as before', () => {
    const reply = decodeReply<{ body: string }>(encodeReply(answer, false));
    expect('ok' in reply && reply.ok.body).toBe(answer.body.toString('base64'));
  });

  it('leaves replies without a bytes body as JSON, and an empty body as an empty buffer', () => {
    expect(Buffer.from(encodeReply({ body: 'text' }, true)).toString()).toBe('{"ok":{"body":"text"}}');
    const empty = decodeReply<{ body: Buffer }>(encodeReply({ status: 204, body: Buffer.alloc(0) }, true));
    expect('ok' in empty && empty.ok.body.length).toBe(0);
  });

  it('answers a truncated frame with a 502 problem', () => {
    const frame = encodeReply(answer, true);
    expect(decodeReply(frame.subarray(0, 8))).toMatchObject({ problem: { status: 502 } });
  });
});
