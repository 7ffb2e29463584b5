import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { classifyAddress, EgressDeniedError, egressFetch, EgressFetchError, EgressPolicy, HOST_PATTERN, HostAllowList, releaseAgent } from './index';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['100.128.0.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:808:808::1', 'public'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:80b::200e', 'public'],
    ['not-an-ip', 'invalid'],
    ['1.2.3', 'invalid'],
  ])('%s is %s', (ip, cls) => {
    expect(classifyAddress(ip)).toBe(cls);
  });
});

describe('EgressPolicy', () => {
  const resolver = async (host: string) => {
    if (host === 'private.test') return ['10.0.0.5'];
    if (host === 'mixed.test') return ['8.8.8.8', '192.168.0.1'];
    if (host === 'public.test') return ['8.8.8.8', '2606:4700:4700::1111'];
    throw new Error('ENOTFOUND');
  };

  it('checks schemes, credentials and IP literals', () => {
    const p = new EgressPolicy({ resolver });
    expect(p.checkUrl('https://example.com/x').hostname).toBe('example.com');
    expect(() => p.checkUrl('ftp://example.com/')).toThrow(/Only http and https/);
    expect(() => p.checkUrl('http://a:b@example.com/')).toThrow(/credentials/);
    expect(() => p.checkUrl('http://127.0.0.1/')).toThrow('Requests to 127.0.0.1 are not allowed (not found, or not a public address)');
    expect(() => p.checkUrl('http://[::ffff:a9fe:a9fe]/')).toThrow(/not allowed/);
    expect(() => p.checkUrl('http://0x7f000001/')).toThrow('Requests to 127.0.0.1 are not allowed');
    expect(() => p.checkUrl('not a url')).toThrow(/Invalid URL/);
    const https = new EgressPolicy({ protocols: ['https:'] });
    expect(() => https.checkUrl('http://example.com/')).toThrow(/Only https/);
  });

  it('refuses names resolving to any non-public address, without naming it', async () => {
    const p = new EgressPolicy({ resolver });
    await expect(p.resolve('public.test')).resolves.toEqual(['8.8.8.8', '2606:4700:4700::1111']);
    await expect(p.resolve('private.test')).rejects.toThrow(/private\.test are not allowed/);
    await expect(p.resolve('mixed.test')).rejects.toThrow(/not allowed/);
    await expect(p.resolve('mixed.test')).rejects.not.toThrow(/192\.168/);
    await expect(p.resolve('nope.test')).rejects.toThrow(/nope\.test are not allowed/);
  });

  // F9 (issue 11): "not found" and "refused" must not tell internal host names apart
  it('fails alike for a host that does not resolve and for one that resolves to a refused address', async () => {
    const p = new EgressPolicy({ resolver: async (h) => (h === 'empty.test' ? [] : h === 'only6.test' ? ['2606:4700:4700::1111'] : resolver(h)) });
    const failures: Record<string, unknown> = {};
    for (const host of ['nope.test', 'empty.test', 'private.test', 'mixed.test', '10.0.0.5', '169.254.169.254', '::1']) {
      failures[host] = await p.resolve(host).then(
        () => 'resolved',
        (e: unknown) => e,
      );
    }
    failures['checkUrl 127.0.0.1'] = (() => {
      try {
        return p.checkUrl('http://127.0.0.1/');
      } catch (e) {
        return e;
      }
    })();
    const lookup = (host: string) => new Promise<unknown>((r) => p.lookup(host, {}, (e) => r(e)));
    failures['lookup nope.test'] = await lookup('nope.test');
    failures['lookup private.test'] = await lookup('private.test');
    failures['lookup only6.test (asked for IPv4)'] = await new Promise<unknown>((r) => p.lookup('only6.test', { family: 4 }, (e) => r(e)));
    // everything but the host the caller named is identical: class, name, code, message, own properties
    const shapes = Object.entries(failures).map(([key, e]) => {
      expect(e).toBeInstanceOf(EgressDeniedError);
      const err = e as EgressDeniedError;
      const host = key.replace(/^(lookup|checkUrl) /, '').replace(/ .*$/, '');
      return {
        name: err.name,
        code: err.code,
        message: err.message.replace(host, '<host>'),
        keys: Object.keys(err).sort(),
        proto: Object.getPrototypeOf(err),
      };
    });
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);
    expect(shapes[0].message).toBe('Requests to <host> are not allowed (not found, or not a public address)');
  });

  it('allowPrivate and allowHosts relax the check', async () => {
    expect(new EgressPolicy({ allowPrivate: true }).checkUrl('http://127.0.0.1/').href).toBe('http://127.0.0.1/');
    const p = new EgressPolicy({ resolver, allowHosts: ['private.test'] });
    await expect(p.resolve('private.test')).resolves.toEqual(['10.0.0.5']);
    await expect(p.resolve('mixed.test')).rejects.toThrow();
    expect(EgressPolicy.fromEnv('X_ALLOW', { X_ALLOW: 'TRUE' }).allowPrivate).toBe(true);
    expect(EgressPolicy.fromEnv('X_ALLOW', {}).allowPrivate).toBe(false);
    expect(() => EgressPolicy.forCallbacks({}).checkUrl('http://example.com/')).toThrow(/Only https/);
    expect(EgressPolicy.forCallbacks({ ALLOW_PRIVATE_CALLBACKS: 'true' }).checkUrl('http://127.0.0.1:1/').port).toBe('1');
    // spelled like every boolean of the configuration (envBool): 1 and yes are on
    expect(EgressPolicy.fromEnv('X_ALLOW', { X_ALLOW: '1' }).allowPrivate).toBe(true);
    expect(EgressPolicy.fromEnv('X_ALLOW', { X_ALLOW: 'yes' }).allowPrivate).toBe(true);
    expect(EgressPolicy.fromEnv('X_ALLOW', { X_ALLOW: 'no' }).allowPrivate).toBe(false);
    expect(EgressPolicy.callbacks(true).checkUrl('http://127.0.0.1:1/').port).toBe('1');
    expect(() => EgressPolicy.callbacks(false).checkUrl('http://example.com/')).toThrow(/Only https/);
  });

  it('lookup serves both net.connect signatures and refuses private targets', async () => {
    const p = new EgressPolicy({ resolver });
    const one = await new Promise<[unknown, unknown, unknown]>((r) => p.lookup('public.test', { family: 6 }, (e, a, f) => r([e, a, f])));
    expect(one).toEqual([null, '2606:4700:4700::1111', 6]);
    const all = await new Promise<[unknown, unknown]>((r) => p.lookup('public.test', { all: true }, ((e: unknown, a: unknown) => r([e, a])) as never));
    expect(all).toEqual([
      null,
      [
        { address: '8.8.8.8', family: 4 },
        { address: '2606:4700:4700::1111', family: 6 },
      ],
    ]);
    const denied = await new Promise<unknown>((r) => p.lookup('private.test', {}, (e) => r(e)));
    expect(denied).toMatchObject({ code: 'EGRESS_DENIED' });
  });
});

describe('egressFetch', () => {
  let server: Server;
  let port = 0;
  let lastHeaders: IncomingMessage['headers'] = {};
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/ok': (_q, s) => s.end('ok'),
    '/loop': (_q, s) => {
      s.statusCode = 302;
      s.setHeader('location', '/loop');
      s.end();
    },
    '/cross': (_q, s) => {
      s.statusCode = 307;
      s.setHeader('location', `http://other.test:${port}/headers`);
      s.end();
    },
    '/see-other': (_q, s) => {
      s.statusCode = 303;
      s.setHeader('location', '/method');
      s.end();
    },
    '/method': (q, s) => s.end(q.method),
    '/headers': (q, s) => {
      lastHeaders = q.headers;
      s.end('h');
    },
    '/gzip-bomb': (_q, s) => {
      s.setHeader('content-encoding', 'gzip');
      s.end(gzipSync(Buffer.alloc(20 * 1024 * 1024)));
    },
    '/gzip': (_q, s) => {
      s.setHeader('content-encoding', 'gzip');
      s.end(gzipSync('compressed'));
    },
    '/declared-big': (_q, s) => {
      s.setHeader('content-length', String(100 * 1024 * 1024));
      s.write('x');
    },
    '/hang': () => undefined,
  };

  beforeAll(async () => {
    server = createServer((q, s) => (routes[q.url ?? ''] ?? ((_a, b: ServerResponse) => ((b.statusCode = 404), b.end())))(q, s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await releaseAgent(policy);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const policy = new EgressPolicy({
    allowHosts: ['local.test', 'other.test'],
    resolver: async (h) => (h === 'local.test' || h === 'other.test' ? ['127.0.0.1'] : ['10.9.9.9']),
  });
  const soon = () => ({ deadline: Date.now() + 2000 });
  const url = (p: string) => `http://local.test:${port}${p}`;

  it('fetches through the policy', async () => {
    const r = await egressFetch(policy, { url: url('/ok') }, soon());
    expect(r).toMatchObject({ status: 200, statusText: 'OK', redirected: false });
    expect(r.body.toString()).toBe('ok');
  });

  it('limits redirects, supports manual and error modes, and 303 turns into GET', async () => {
    await expect(egressFetch(policy, { url: url('/loop') }, soon())).rejects.toMatchObject({ type: 'max-redirect' });
    const manual = await egressFetch(policy, { url: url('/loop'), redirect: 'manual' }, soon());
    expect(manual.status).toBe(302);
    await expect(egressFetch(policy, { url: url('/loop'), redirect: 'error' }, soon())).rejects.toMatchObject({ type: 'no-redirect' });
    const see = await egressFetch(policy, { url: url('/see-other'), method: 'POST', body: Buffer.from('x') }, soon());
    expect(see.body.toString()).toBe('GET');
  });

  it('drops credentials on cross-origin redirects and hop-by-hop headers always', async () => {
    await egressFetch(
      policy,
      {
        url: url('/cross'),
        headers: [
          ['authorization', 'secret'],
          ['x-keep', '1'],
          ['host', 'evil'],
          ['transfer-encoding', 'chunked'],
        ],
      },
      soon(),
    );
    expect(lastHeaders['authorization']).toBeUndefined();
    expect(lastHeaders['x-keep']).toBe('1');
    expect(lastHeaders['host']).toBe(`other.test:${port}`);
    expect(lastHeaders['accept-encoding']).toBe('identity');
  });

  it('bounds response size, also after decompression', async () => {
    await expect(egressFetch(policy, { url: url('/gzip-bomb') }, { ...soon(), maxResponseBytes: 1024 * 1024 })).rejects.toMatchObject({ type: 'max-size' });
    await expect(egressFetch(policy, { url: url('/declared-big') }, soon())).rejects.toMatchObject({ type: 'max-size' });
    const gz = await egressFetch(policy, { url: url('/gzip') }, soon());
    expect(gz.body.toString()).toBe('compressed');
  });

  it('ends at the deadline and on abort', async () => {
    const t = Date.now();
    await expect(egressFetch(policy, { url: url('/hang') }, { deadline: Date.now() + 200 })).rejects.toMatchObject({ type: 'request-timeout' });
    expect(Date.now() - t).toBeLessThan(1000);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await expect(egressFetch(policy, { url: url('/hang') }, { deadline: Date.now() + 5000, signal: ac.signal })).rejects.toMatchObject({ type: 'aborted' });
  });

  it('a formula cannot tell an unresolvable host from a refused one (same error, also through redirects)', async () => {
    const oracle = new EgressPolicy({
      allowHosts: ['local.test'],
      resolver: async (h) => {
        if (h === 'local.test') return ['127.0.0.1'];
        if (h === 'internal.test') return ['10.1.2.3'];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' });
      },
    });
    routes['/to-internal'] = (_q, s) => {
      s.statusCode = 302;
      s.setHeader('location', `http://internal.test:${port}/ok`);
      s.end();
    };
    routes['/to-nowhere'] = (_q, s) => {
      s.statusCode = 302;
      s.setHeader('location', `http://nowhere.test:${port}/ok`);
      s.end();
    };
    try {
      const attempt = async (u: string) => {
        const e = await egressFetch(oracle, { url: u }, soon()).then(
          () => null,
          (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(EgressFetchError);
        const err = e as EgressFetchError;
        const host = /internal\.test|nowhere\.test|169\.254\.169\.254|10\.1\.2\.3/.exec(err.message)?.[0] ?? '';
        return { type: err.type, code: err.code, name: err.name, keys: Object.keys(err).sort(), message: err.message.split(host).join('<host>') };
      };
      const shapes = [
        await attempt(`http://internal.test:${port}/ok`),
        await attempt(`http://nowhere.test:${port}/ok`),
        await attempt(`http://10.1.2.3:${port}/ok`),
        await attempt(`http://169.254.169.254:${port}/ok`),
      ];
      for (const s of shapes) expect(s).toEqual(shapes[0]);
      expect(shapes[0]).toMatchObject({ type: 'egress-denied', code: 'EGRESS_DENIED' });
      expect(shapes[0].message).toBe(`request to http://<host>:${port}/ok refused: Requests to <host> are not allowed (not found, or not a public address)`);
      const redirected = [await attempt(url('/to-internal')), await attempt(url('/to-nowhere'))];
      expect(redirected[1]).toEqual(redirected[0]);
    } finally {
      await releaseAgent(oracle);
      delete routes['/to-internal'];
      delete routes['/to-nowhere'];
    }
  });

  it('a host not on the reactor list fails like an unreachable one, before any resolution, also through redirects', async () => {
    const resolved: string[] = [];
    const listed = new EgressPolicy({
      allowHosts: ['local.test'],
      resolver: async (h) => {
        resolved.push(h);
        if (h === 'local.test') return ['127.0.0.1'];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' });
      },
    });
    routes['/to-unlisted'] = (_q, s) => {
      s.statusCode = 302;
      s.setHeader('location', `http://unlisted.test:${port}/ok`);
      s.end();
    };
    const list = new HostAllowList(['local.test']);
    const limits = () => ({ ...soon(), hostAllowed: (h: string) => list.allows(h) });
    const shape = (e: unknown, host: string) => {
      const err = e as EgressFetchError;
      return { type: err.type, code: err.code, name: err.name, keys: Object.keys(err).sort(), message: err.message.split(host).join('<host>') };
    };
    const fail = (u: string, l: Parameters<typeof egressFetch>[2]) =>
      egressFetch(listed, { url: u }, l).then(
        () => null,
        (x: unknown) => x,
      );
    try {
      expect((await egressFetch(listed, { url: url('/ok') }, limits())).status).toBe(200);
      const unlisted = shape(await fail(`http://unlisted.test:${port}/ok`, limits()), 'unlisted.test');
      const unknown = shape(await fail(`http://nowhere.test:${port}/ok`, soon()), 'nowhere.test');
      expect(unlisted).toEqual(unknown);
      expect(unlisted).toMatchObject({ type: 'egress-denied', code: 'EGRESS_DENIED' });
      expect(shape(await fail(url('/to-unlisted'), limits()), 'unlisted.test')).toEqual(unknown);
      // an unlisted host is never looked up: no DNS query carries anything out
      expect(resolved).not.toContain('unlisted.test');
    } finally {
      await releaseAgent(listed);
      delete routes['/to-unlisted'];
    }
  });

  it('refuses bad methods, bodies on GET and invalid headers', async () => {
    await expect(egressFetch(policy, { url: url('/ok'), method: 'CONNECT' }, soon())).rejects.toBeInstanceOf(EgressFetchError);
    await expect(egressFetch(policy, { url: url('/ok'), body: Buffer.from('x') }, soon())).rejects.toMatchObject({ type: 'invalid' });
    await expect(egressFetch(policy, { url: url('/ok'), headers: [['x', 'a\r\nb']] }, soon())).rejects.toMatchObject({ type: 'invalid' });
    await expect(egressFetch(policy, { url: `http://elsewhere.test:${port}/ok` }, soon())).rejects.toMatchObject({ type: 'egress-denied' });
  });
});

describe('HostAllowList', () => {
  const list = new HostAllowList(['api.stripe.com', '*.example.com', 'API.Partner.test.', '127.0.0.1', '[::1]', 'bad host', '*', '*.']);

  it.each([
    ['api.stripe.com', true],
    ['API.STRIPE.COM', true],
    ['api.stripe.com.', true],
    ['stripe.com', false],
    ['evil-api.stripe.com', false],
    ['a.example.com', true],
    ['a.b.example.com', true],
    ['example.com', false],
    ['notexample.com', false],
    ['api.partner.test', true],
    ['127.0.0.1', true],
    ['[::1]', true],
    ['::1', true],
    ['127.0.0.2', false],
    ['bad host', false],
    ['anything.test', false],
  ])('%s -> %s', (host, allowed) => {
    expect(list.allows(host)).toBe(allowed);
  });

  it.each([
    ['api.stripe.com', true],
    ['*.example.com', true],
    ['127.0.0.1', true],
    ['[2001:db8::1]', true],
    ['*', false],
    ['*.', false],
    ['a.*.com', false],
    ['http://a.com', false],
    ['a.com:443', false],
    ['a..com', false],
    ['-a.com', false],
    ['a'.repeat(64) + '.com', false],
  ])('pattern %s valid: %s', (pattern, valid) => {
    expect(HOST_PATTERN.test(pattern)).toBe(valid);
  });
});
