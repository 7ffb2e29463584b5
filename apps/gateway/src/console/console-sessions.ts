import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ProblemError } from '@coffer/contracts';
import { gatewayConfig } from '../config';

/** The console's cookies and header (docs/console.md). */
export const CONSOLE_COOKIE = 'coffer_console';
export const CSRF_COOKIE = 'coffer_console_csrf';
export const CSRF_HEADER = 'x-coffer-csrf';

interface ConsoleSession {
  /** the hash of the signed-in key: all the gateway needs to resolve its principal; the key itself is never kept */
  keyHash: string;
  csrf: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface ConsoleSessionLimits {
  idleTimeoutMs: number;
  maxAgeMs: number;
  /** live sessions in all: past it a sign-in is refused (503) until some end */
  maxSessions: number;
  /** live sessions of one key: past it the key's oldest session ends */
  maxSessionsPerKey: number;
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

/** The value of one cookie in a Cookie header (RFC 6265 syntax: `a=1; b=2`), undefined when absent. */
export function readCookie(header: string | string[] | undefined, name: string): string | undefined {
  const text = Array.isArray(header) ? header.join('; ') : (header ?? '');
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Console sign-ins: a management key exchanged for an opaque session id (an HttpOnly cookie) and a CSRF token
 * (synchronizer: kept here, sent back by the page in X-Coffer-CSRF on every call). Sessions live in this process's
 * memory, indexed by the hash of their id (a heap dump reveals no usable cookie), and hold only the key's hash: the
 * principal is resolved from it like from the header, so revoking the key ends the console session too. A session
 * ends at sign-out, after the idle timeout or at its maximum age.
 */
@Injectable()
export class ConsoleSessions {
  private readonly sessions = new Map<string, ConsoleSession>();

  constructor(
    private readonly limits: ConsoleSessionLimits = gatewayConfig().console,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new session of this key; 503 when CONSOLE_MAX_SESSIONS are live (a flood of sign-ins holds no more memory). */
  create(keyHash: string): { id: string; csrf: string } {
    this.sweep();
    this.endOldestOf(keyHash, this.limits.maxSessionsPerKey - 1);
    if (this.sessions.size >= this.limits.maxSessions) {
      const full = new ProblemError(503, 'Too many console sessions are open: try again later');
      full.retryAfter = 60;
      throw full;
    }
    const id = randomBytes(32).toString('base64url');
    const csrf = randomBytes(32).toString('base64url');
    const at = this.now();
    this.sessions.set(hash(id), { keyHash, csrf, createdAt: at, lastSeenAt: at });
    return { id, csrf };
  }

  /** The live session of this id (touching it), or undefined when unknown, idle too long or too old. */
  private live(id: string): ConsoleSession | undefined {
    const key = hash(id);
    const session = this.sessions.get(key);
    if (!session) return undefined;
    const at = this.now();
    if (at - session.lastSeenAt > this.limits.idleTimeoutMs || at - session.createdAt > this.limits.maxAgeMs) {
      this.sessions.delete(key);
      return undefined;
    }
    session.lastSeenAt = at;
    return session;
  }

  /**
   * The key hash a console request authenticates with: its session cookie plus the matching CSRF header (a cookie
   * alone authenticates nothing, so another site cannot make the browser act). Undefined without a session cookie;
   * 401 for a cookie of an ended session or without the right header.
   */
  keyHashOf(request: FastifyRequest): string | undefined {
    const id = readCookie(request.headers.cookie, CONSOLE_COOKIE);
    if (!id) return undefined;
    const session = this.live(id);
    if (!session) throw new ProblemError(401, 'The console session has ended: sign in again');
    const header = request.headers[CSRF_HEADER];
    const csrf = Array.isArray(header) ? header[0] : header;
    if (!csrf || !sameSecret(csrf, session.csrf)) throw new ProblemError(401, 'The console session needs its X-Coffer-CSRF header');
    return session.keyHash;
  }

  /** Ends the session of this request's cookie; true when there was one. */
  destroy(request: FastifyRequest): boolean {
    const id = readCookie(request.headers.cookie, CONSOLE_COOKIE);
    return id !== undefined && this.sessions.delete(hash(id));
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Ends this key's oldest sessions until at most `keep` are left (Map order is creation order). */
  private endOldestOf(keyHash: string, keep: number): void {
    const mine = [...this.sessions].filter(([, s]) => s.keyHash === keyHash);
    for (const [key] of mine.slice(0, Math.max(0, mine.length - keep))) this.sessions.delete(key);
  }

  /** Drops ended sessions (on each sign-in: the map never grows with abandoned sessions). */
  private sweep(): void {
    const at = this.now();
    for (const [key, s] of this.sessions) {
      if (at - s.lastSeenAt > this.limits.idleTimeoutMs || at - s.createdAt > this.limits.maxAgeMs) this.sessions.delete(key);
    }
  }
}
