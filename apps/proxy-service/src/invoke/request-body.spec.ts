import { payloadOf, readBody, writeBody } from './request-body';

const shape = (body: string | Buffer, type?: string) => readBody(Buffer.isBuffer(body) ? body : Buffer.from(body), type);

describe('request bodies for detokenization', () => {
  it('reads JSON, form and text bodies holding `{{`, and nothing else', () => {
    expect(shape('{"a":"{{ t }}"}', 'application/json; charset=utf-8')).toEqual({ kind: 'json', value: { a: '{{ t }}' } });
    expect(shape('{"a":"{{ t }}"}', 'application/vnd.api+json').kind).toBe('json');
    expect(shape('a=%7B%7B+t+%7D%7D&b=1', 'application/x-www-form-urlencoded')).toEqual({
      kind: 'form',
      pairs: [
        ['a', '{{ t }}'],
        ['b', '1'],
      ],
    });
    expect(shape('x {{ t }}', 'text/plain')).toEqual({ kind: 'text', text: 'x {{ t }}' });
    expect(shape('<a>{{ t }}</a>', 'application/xml').kind).toBe('text');
    expect(shape('{{ t }}')).toEqual({ kind: 'text', text: '{{ t }}' });
    expect(shape('{"a":1}', 'application/json').kind).toBe('opaque');
    expect(shape('{{ t }}', 'application/octet-stream').kind).toBe('opaque');
    expect(shape('{{ t }}', 'multipart/form-data; boundary=x').kind).toBe('opaque');
    expect(shape(Buffer.from([0xff, 0xfe, 0x7b, 0x7b]), 'text/plain').kind).toBe('opaque');
    expect(shape('{ broken {{ t }}', 'application/json')).toEqual({ kind: 'text', text: '{ broken {{ t }}' });
  });

  it('writes the replaced values back: JSON, form values (names kept), text', () => {
    const json = shape('{"a":"{{ t }}"}', 'application/json');
    expect(writeBody(json, { a: { n: 1 } }).toString()).toBe('{"a":{"n":1}}');
    const form = shape('card[n]=%7B%7Bt%7D%7D&x=1', 'application/x-www-form-urlencoded');
    expect(payloadOf(form as Exclude<typeof form, { kind: 'opaque' }>)).toEqual(['{{t}}', '1']);
    expect(writeBody(form, ['4242 4242', '1']).toString()).toBe('card%5Bn%5D=4242+4242&x=1');
    const text = shape('{{ t }}', 'text/plain');
    expect(writeBody(text, { n: 1 }).toString()).toBe('{"n":1}');
    expect(writeBody(text, 42).toString()).toBe('42');
  });
});
