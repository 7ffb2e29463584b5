import type { FastifyRequest } from 'fastify';
import { ProblemError } from '@coffer/contracts';
import { CONSOLE_COOKIE, CSRF_HEADER, ConsoleSessions, readCookie } from './console-sessions';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;
const withSession = (id: string, csrf?: string) => request({ cookie: `other=1; ${CONSOLE_COOKIE}=${id}`, ...(csrf ? { [CSRF_HEADER]: csrf } : {}) });
const status = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return err instanceof ProblemError ? err.problem.status : 'thrown';
  }
};

describe('ConsoleSessions', () => {
  let now = 0;
  const sessions = (caps = { maxSessions: 1_000, maxSessionsPerKey: 100 }) =>
    new ConsoleSessions({ idleTimeoutMs: 1_000, maxAgeMs: 5_000, ...caps }, () => now);
  beforeEach(() => {
    now = 1_000_000;
  });

  it('resolves a session cookie with its CSRF header to the key hash; never without the header or with a wrong one', () => {
    const s = sessions();
    const { id, csrf } = s.create('hash-of-key');
    expect(s.keyHashOf(withSession(id, csrf))).toBe('hash-of-key');
    expect(status(() => s.keyHashOf(withSession(id)))).toBe(401);
    expect(
      status(() =>
        s.keyHashOf(
          withSession(
            id,
            csrf.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')),
          ),
        ),
      ),
    ).toBe(401);
    expect(status(() => s.keyHashOf(withSession('forged', csrf)))).toBe(401);
    expect(s.keyHashOf(request({}))).toBeUndefined();
  });

  it('ends a session after the idle timeout; each request keeps it alive', () => {
    const s = sessions();
    const { id, csrf } = s.create('k');
    now += 900;
    expect(s.keyHashOf(withSession(id, csrf))).toBe('k');
    now += 900;
    expect(s.keyHashOf(withSession(id, csrf))).toBe('k');
    now += 1_001;
    expect(status(() => s.keyHashOf(withSession(id, csrf)))).toBe(401);
  });

  it('ends a session at its maximum age however active, and at sign-out', () => {
    const s = sessions();
    const a = s.create('k');
    for (let i = 0; i < 5; i++) {
      now += 900;
      s.keyHashOf(withSession(a.id, a.csrf));
    }
    now += 900;
    expect(status(() => s.keyHashOf(withSession(a.id, a.csrf)))).toBe(401);
    const b = s.create('k');
    expect(s.destroy(withSession(b.id))).toBe(true);
    expect(status(() => s.keyHashOf(withSession(b.id, b.csrf)))).toBe(401);
  });

  it('keeps no ended session around, and never the session id itself', () => {
    const s = sessions();
    const { id } = s.create('k');
    now += 2_000;
    s.create('k2');
    expect(s.size).toBe(1);
    expect(JSON.stringify([...(s as unknown as { sessions: Map<string, unknown> }).sessions.entries()])).not.toContain(id);
  });

  it('keeps at most CONSOLE_MAX_SESSIONS_PER_KEY sessions of one key (its oldest end) and refuses sign-ins past CONSOLE_MAX_SESSIONS', () => {
    const s = sessions({ maxSessions: 4, maxSessionsPerKey: 2 });
    const first = s.create('k');
    const second = s.create('k');
    const third = s.create('k');
    expect(status(() => s.keyHashOf(withSession(first.id, first.csrf)))).toBe(401);
    expect(s.keyHashOf(withSession(second.id, second.csrf))).toBe('k');
    expect(s.keyHashOf(withSession(third.id, third.csrf))).toBe('k');
    s.create('a');
    s.create('b');
    expect(s.size).toBe(4);
    expect(status(() => s.create('c'))).toBe(503);
    // an ended session makes room again
    now += 2_000;
    expect(status(() => s.create('c'))).toBe('ok');
  });

  it('reads one cookie out of a Cookie header', () => {
    expect(readCookie('a=1; coffer_console=xyz; b=2', 'coffer_console')).toBe('xyz');
    expect(readCookie('coffer_console_csrf=t', 'coffer_console')).toBeUndefined();
    expect(readCookie(undefined, 'x')).toBeUndefined();
  });
});
