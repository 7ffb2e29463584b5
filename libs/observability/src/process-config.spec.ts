import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, envList, envOneOf } from './config';
import { loadProcessConfig } from './process-config';
import { logLevel } from './logger';

const VARS = [
  'HEALTH_PORT',
  'LOG_LEVEL',
  'SHUTDOWN_TIMEOUT_MS',
  'MEMORY_RECLAIM_IDLE_MS',
  'NATS_URL',
  'NATS_USER',
  'NATS_PASSWORD',
  'NATS_TOKEN',
  'NATS_NKEY_SEED',
  'NATS_NKEY_SEED_FILE',
  'NATS_TLS_CA_FILE',
  'NATS_TLS_CERT_FILE',
  'NATS_TLS_KEY_FILE',
  'COFFER_COMMIT',
  'X_LIST',
  'X_ONE',
];

describe('the settings every process reads', () => {
  const saved = { ...process.env };
  const env = (values: Record<string, string>) => Object.assign(process.env, values);
  beforeEach(() => VARS.forEach((v) => delete process.env[v]));
  afterAll(() => {
    process.env = saved;
  });

  it('has a default for each', () => {
    expect(loadProcessConfig(9999)).toEqual({
      healthPort: 9999,
      logLevel: 'info',
      shutdownTimeoutMs: 25_000,
      memoryReclaimIdleMs: 10_000,
      natsServers: ['nats://127.0.0.1:4222'],
    });
  });

  it('reads the values given', () => {
    env({
      HEALTH_PORT: '9200',
      LOG_LEVEL: 'WARN',
      SHUTDOWN_TIMEOUT_MS: '5000',
      MEMORY_RECLAIM_IDLE_MS: '0',
      NATS_URL: 'nats://a:4222, nats://b:4222,c:4222',
      NATS_USER: 'u',
      NATS_PASSWORD: 'p',
    });
    expect(loadProcessConfig(9999)).toEqual({
      healthPort: 9200,
      logLevel: 'warn',
      shutdownTimeoutMs: 5000,
      memoryReclaimIdleMs: 0,
      natsServers: ['nats://a:4222', 'nats://b:4222', 'c:4222'],
      natsUser: 'u',
      natsPassword: 'p',
    });
  });

  it.each([
    [{ HEALTH_PORT: '0' }, 'HEALTH_PORT must be an integer between 1 and 65535, got "0"'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'],
    [{ SHUTDOWN_TIMEOUT_MS: '25s' }, 'SHUTDOWN_TIMEOUT_MS must be an integer between 1 and 3600000, got "25s"'],
    [{ NATS_URL: 'http://x:4222' }, 'NATS_URL: every entry must use nats:// or tls://'],
    [{ NATS_USER: 'u' }, 'NATS_PASSWORD is required when NATS_USER is set'],
    [{ NATS_PASSWORD: 'p' }, 'NATS_USER is required when NATS_PASSWORD is set'],
  ])('stops on %p', (values, message) => {
    env(values);
    expect(() => loadProcessConfig(9999)).toThrow(new ConfigError(message));
  });

  describe('TLS to the bus', () => {
    let dir: string;
    const file = (name: string) => path.join(dir, name);
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-tls-config-'));
      for (const name of ['ca.pem', 'client.pem', 'client.key']) fs.writeFileSync(file(name), 'PEM');
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('verifies the server against NATS_TLS_CA_FILE, with an optional client certificate', () => {
      env({ NATS_URL: 'tls://nats:4222', NATS_TLS_CA_FILE: file('ca.pem') });
      expect(loadProcessConfig(9999).natsTls).toEqual({ caFile: file('ca.pem') });
      env({ NATS_TLS_CERT_FILE: file('client.pem'), NATS_TLS_KEY_FILE: file('client.key') });
      expect(loadProcessConfig(9999).natsTls).toEqual({ caFile: file('ca.pem'), certFile: file('client.pem'), keyFile: file('client.key') });
    });

    it('asks for TLS with a CA on a nats:// URL too (the client then refuses a server without TLS)', () => {
      env({ NATS_URL: 'nats://nats:4222', NATS_TLS_CA_FILE: file('ca.pem') });
      expect(loadProcessConfig(9999).natsTls).toEqual({ caFile: file('ca.pem') });
    });

    it.each([
      [{ NATS_URL: 'nats://a:4222,TLS://b:4222' }, 'NATS_TLS_CA_FILE is required when NATS_URL uses tls://'],
      [{ NATS_TLS_CA_FILE: '/nonexistent/ca.pem' }, 'NATS_TLS_CA_FILE is not a readable file: /nonexistent/ca.pem'],
      [{ NATS_TLS_CA_FILE: 'CA', NATS_TLS_CERT_FILE: 'CERT' }, 'NATS_TLS_KEY_FILE is required when NATS_TLS_CERT_FILE is set'],
      [{ NATS_TLS_CA_FILE: 'CA', NATS_TLS_KEY_FILE: 'KEY' }, 'NATS_TLS_CERT_FILE is required when NATS_TLS_KEY_FILE is set'],
      [{ NATS_TLS_CERT_FILE: 'CERT', NATS_TLS_KEY_FILE: 'KEY' }, 'NATS_TLS_CA_FILE is required when NATS_TLS_CERT_FILE is set'],
    ])('stops on %p', (values, message) => {
      const real: Record<string, string> = { CA: file('ca.pem'), CERT: file('client.pem'), KEY: file('client.key') };
      env(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, real[v] ?? v])));
      expect(() => loadProcessConfig(9999)).toThrow(new ConfigError(message));
    });
  });

  describe('nkey authentication', () => {
    // a syntactically valid user seed (base32 after SU): never a real one
    const SEED = `SU${'A'.repeat(56)}`;
    let dir: string;
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-nkey-config-'));
      fs.writeFileSync(path.join(dir, 'svc.nk'), `${SEED}\n`, { mode: 0o600 });
      fs.writeFileSync(path.join(dir, 'bad.nk'), 'not a seed');
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('takes the seed, or the file that holds it (read again at each connect)', () => {
      env({ NATS_NKEY_SEED: SEED });
      expect(loadProcessConfig(9999).natsNkey).toEqual({ seed: SEED });
      delete process.env['NATS_NKEY_SEED'];
      env({ NATS_NKEY_SEED_FILE: path.join(dir, 'svc.nk') });
      expect(loadProcessConfig(9999).natsNkey).toEqual({ seedFile: path.join(dir, 'svc.nk') });
    });

    it.each([
      [{ NATS_NKEY_SEED: 'SUNOTASEED' }, 'NATS_NKEY_SEED must be an nkey user seed (SU…, 58 characters)'],
      [{ NATS_NKEY_SEED: `SU${'A'.repeat(56)}`, NATS_NKEY_SEED_FILE: 'x' }, 'NATS_NKEY_SEED and NATS_NKEY_SEED_FILE are both set: set one'],
      [{ NATS_NKEY_SEED_FILE: '/nonexistent/svc.nk' }, 'NATS_NKEY_SEED_FILE is not a readable file: /nonexistent/svc.nk'],
      [{ NATS_NKEY_SEED: `SU${'A'.repeat(56)}`, NATS_USER: 'u', NATS_PASSWORD: 'p' }, 'NATS_NKEY_SEED and NATS_USER are both set: set one'],
      [{ NATS_NKEY_SEED: `SU${'A'.repeat(56)}`, NATS_TOKEN: 't' }, 'NATS_NKEY_SEED and NATS_TOKEN are both set: set one'],
    ])('stops on %p', (values, message) => {
      env(values);
      expect(() => loadProcessConfig(9999)).toThrow(new ConfigError(message));
    });

    it('never quotes a seed, given or read from a file', () => {
      env({ NATS_NKEY_SEED: `SU${'A'.repeat(55)}!` });
      expect(() => loadProcessConfig(9999)).toThrow(/^(?!.*AAAA)/);
      delete process.env['NATS_NKEY_SEED'];
      env({ NATS_NKEY_SEED_FILE: path.join(dir, 'bad.nk') });
      expect(() => loadProcessConfig(9999)).toThrow(
        new ConfigError(`NATS_NKEY_SEED_FILE does not hold an nkey user seed (SU…, 58 characters): ${path.join(dir, 'bad.nk')}`),
      );
    });
  });

  it('checks COFFER_COMMIT at start-up (a label value of coffer_build_info)', () => {
    env({ COFFER_COMMIT: 'not a commit' });
    expect(() => loadProcessConfig(9999)).toThrow(/^COFFER_COMMIT must be/);
    env({ COFFER_COMMIT: '158bfcb7e2a1' });
    expect(() => loadProcessConfig(9999)).not.toThrow();
  });

  it('never quotes a NATS URL (it may carry a password)', () => {
    env({ NATS_URL: 'http://user:secret@x:4222' });
    expect(() => loadProcessConfig(9999)).toThrow(/^(?!.*secret)/);
  });

  it('logLevel, envOneOf and envList', () => {
    expect(logLevel()).toBe('info');
    env({ X_ONE: 'B', X_LIST: ' a, ,b ' });
    expect(envOneOf('X_ONE', ['a', 'b'] as const, 'a')).toBe('b');
    expect(envList('X_LIST', '', () => null)).toEqual(['a', 'b']);
    expect(() => envList('X_LIST', '', (e) => (e === 'b' ? 'no b' : null))).toThrow('X_LIST: no b');
  });
});
