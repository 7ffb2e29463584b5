import { connectionNamed, withoutHopByHop } from './hop-by-hop';

describe('hop-by-hop header rules', () => {
  it('drops hop-by-hop headers and every header a Connection header names, keeping the order of the rest', () => {
    const headers: [string, string][] = [
      ['Content-Type', 'text/plain'],
      ['Connection', 'close, X-Internal'],
      ['connection', ' x-other ,'],
      ['X-Internal', 'secret'],
      ['Keep-Alive', 'timeout=5'],
      ['x-other', '1'],
      ['Upgrade', 'h2c'],
      ['X-Kept', 'yes'],
    ];
    expect(withoutHopByHop(headers)).toEqual([
      ['Content-Type', 'text/plain'],
      ['X-Kept', 'yes'],
    ]);
  });

  it('takes extra names to drop, compared in lower case', () => {
    expect(
      withoutHopByHop(
        [
          ['Content-Length', '3'],
          ['a', 'b'],
        ],
        new Set(['content-length']),
      ),
    ).toEqual([['a', 'b']]);
  });

  it('lists what Connection names, in lower case', () => {
    expect([
      ...connectionNamed([
        ['connection', 'Close, X-A'],
        ['x-b', 'c'],
      ]),
    ]).toEqual(['close', 'x-a']);
  });
});
