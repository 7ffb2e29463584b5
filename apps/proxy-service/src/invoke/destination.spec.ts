import { ProblemError } from '@coffer/contracts';
import { destinationUrl, pathClimbs } from './destination';

const refusal = (base: string | undefined) => {
  try {
    destinationUrl(base, '', '');
  } catch (err) {
    return (err as ProblemError).problem;
  }
  throw new Error('accepted');
};

describe('destinationUrl', () => {
  it('appends the path after /proxy and the query, trailing slashes of the base removed', () => {
    expect(destinationUrl('https://api.example.com/v1/', '/charges/ch_1', 'expand=card').href).toBe('https://api.example.com/v1/charges/ch_1?expand=card');
    expect(destinationUrl('https://api.example.com/v1?key=a#frag', '/x', 'b=2').href).toBe('https://api.example.com/v1/x?key=a&b=2');
    expect(destinationUrl('https://api.example.com', '', '').href).toBe('https://api.example.com/');
    expect(destinationUrl(' https://API.Example.com:8443/a ', '/%2F', '').href).toBe('https://api.example.com:8443/a/%2F');
  });

  it.each([
    [undefined, 'is required'],
    ['', 'is required'],
    ['api.example.com/x', 'must be an absolute https URL'],
    ['http://api.example.com', 'must use https'],
    ['ftp://api.example.com', 'must use https'],
    ['https://user:pass@api.example.com', 'must not carry credentials'],
    ['https://127.0.0.1/x', 'must name the host by DNS name, not by IP address'],
    ['https://[::1]/x', 'must name the host by DNS name, not by IP address'],
    ['https://2130706433/x', 'must name the host by DNS name, not by IP address'],
    ['https://0x7f.1/x', 'must name the host by DNS name, not by IP address'],
    ['https://169.254.169.254/latest/meta-data', 'must name the host by DNS name, not by IP address'],
  ])('refuses %p (%s) with a 400 naming BT-PROXY-URL', (base, message) => {
    const problem = refusal(base);
    expect(problem.status).toBe(400);
    expect(problem.errors).toEqual({ 'BT-PROXY-URL': [message] });
  });
});

describe('pathClimbs', () => {
  it.each([
    '/..',
    '/../admin',
    '/a/../../admin',
    '/./admin',
    '/%2e%2e/admin',
    '/%2E%2e/admin',
    '/.%2E/admin',
    '/%2e/admin',
    '/%252e%252e/admin',
    '/%25252E%25252E/admin',
    '/..%2fadmin',
    '/..%2Fadmin',
    '/..%5cadmin',
    '/..\\admin',
    '/a\\b',
    '/x/..;/admin',
    '/x/%2e%2e;jsessionid=1/admin',
    '/.\t./admin',
    '/%2525252525252e',
  ])('refuses %p', (path) => {
    expect(pathClimbs(path)).toEqual(expect.any(String));
    expect(() => destinationUrl('https://api.example.com/tenant-a', path, '')).toThrow(ProblemError);
  });

  it.each(['', '/', '/v1/charges', '/a..b/c.', '/.well-known/x', '/...', '/%2F', '/100%25', '/a%20b', '/%E2%82%AC'])('accepts %p', (path) => {
    expect(pathClimbs(path)).toBeNull();
  });

  it('names the path in the 400', () => {
    try {
      destinationUrl('https://api.example.com/tenant-a', '/%2e%2e/admin', '');
      throw new Error('accepted');
    } catch (err) {
      expect((err as ProblemError).problem).toMatchObject({ status: 400, errors: { path: ['must not contain "." or ".." segments'] } });
    }
  });
});
