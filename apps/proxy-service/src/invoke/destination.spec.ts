import { ProblemError } from '@coffer/contracts';
import { destinationUrl } from './destination';

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
