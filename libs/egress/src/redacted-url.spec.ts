import { redactedUrl } from './redacted-url';

describe('redactedUrl', () => {
  it('keeps the origin and path only', () => {
    expect(redactedUrl('https://user:pw@psp.example.com:8443/v1/charges?api_key=sk_1#x')).toBe('https://psp.example.com:8443/v1/charges');
    expect(redactedUrl('https://psp.example.com')).toBe('https://psp.example.com/');
  });

  it('never echoes what it cannot parse', () => {
    expect(redactedUrl('not a url ?secret=1')).toBe('(unparsable)');
  });
});
