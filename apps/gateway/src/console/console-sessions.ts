import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { OPS, RPC_DEADLINE_MS, type ConsoleAuthenticateReply, type ConsoleSignInMessage, type ConsoleSignInReply } from '@coffer/contracts';
import { sha256Hex } from '@coffer/crypto';
import { RpcClient } from '@coffer/bus';

/** The console's cookies and header (docs/console.md). */
export const CONSOLE_COOKIE = 'coffer_console';
export const CSRF_COOKIE = 'coffer_console_csrf';
export const CSRF_HEADER = 'x-coffer-csrf';
/** The principal cache's key prefix for console sessions (never a key hash: those are bare hex). */
export const CONSOLE_SESSION_PREFIX = 'console:';

/** The value of one cookie in a Cookie header (RFC 6265 syntax: `a=1; b=2`), undefined when absent. */
export function readCookie(header: string | string[] | undefined, name: string): string | undefined {
  const text = Array.isArray(header) ? header.join('; ') : (header ?? '');
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The SHA-256 of the request's console session cookie (what session-service keys sessions by), if it has one. */
export function sessionIdHashOf(request: FastifyRequest): string | undefined {
  const id = readCookie(request.headers.cookie, CONSOLE_COOKIE);
  return id && id.length <= 200 ? sha256Hex(id) : undefined;
}

/**
 * Whether the request carries its session's CSRF token in X-Coffer-CSRF (synchronizer: session-service keeps its
 * hash). A cookie alone authenticates nothing, so another site cannot make the browser act.
 */
export function csrfMatches(request: FastifyRequest, csrfHash: string): boolean {
  const header = request.headers[CSRF_HEADER];
  const csrf = Array.isArray(header) ? header[0] : header;
  if (!csrf || csrf.length > 200) return false;
  const given = Buffer.from(sha256Hex(csrf));
  const kept = Buffer.from(csrfHash);
  return given.length === kept.length && timingSafeEqual(given, kept);
}

/**
 * Console sessions live in PostgreSQL, owned by session-service (any gateway replica serves any session); the gateway
 * only carries the cookie's hash to it. Sign-in by a break-glass management key or by a person through single sign-on
 * (console-routes.ts), the session's principal for each request (cached like a key's, PrincipalResolver), sign-out.
 */
@Injectable()
export class ConsoleSessions {
  constructor(private readonly rpc: RpcClient) {}

  signIn(message: ConsoleSignInMessage, traceId: string): Promise<ConsoleSignInReply> {
    return this.rpc.call(OPS.session.console.signIn, message, { traceId }, RPC_DEADLINE_MS.authenticate);
  }

  authenticate(idHash: string, traceId: string): Promise<ConsoleAuthenticateReply> {
    return this.rpc.call(OPS.session.console.authenticate, { idHash }, { traceId }, RPC_DEADLINE_MS.authenticate);
  }

  signOut(idHash: string, everywhere: boolean, traceId: string): Promise<{ ended: number }> {
    return this.rpc.call(OPS.session.console.signOut, { idHash, everywhere }, { traceId }, RPC_DEADLINE_MS.authenticate);
  }
}
