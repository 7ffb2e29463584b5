import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { apiRaw, gatewayUrl, type ApiResponse } from '@coffer/testing';

/** What a destination received: exactly as it arrived on the wire (raw header pairs, body bytes). */
export interface Received {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  body: Buffer;
}

export type Behaviour = (req: Received, res: ServerResponse, raw: IncomingMessage) => unknown;

/**
 * A local HTTPS destination at https://localhost:<port> with a certificate of the run's test CA (which
 * proxy-service trusts through NODE_EXTRA_CA_CERTS): it records every request and answers as `behave` says
 * (by default 200 with a small JSON body).
 */
export class Destination {
  readonly received: Received[] = [];
  private server?: https.Server;
  behave: Behaviour = (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true }));
  };

  async start(): Promise<this> {
    const dir = process.env['COFFER_E2E_PROXY_TLS_DIR'] as string;
    this.server = https.createServer(
      { key: fs.readFileSync(path.join(dir, 'server.key')), cert: fs.readFileSync(path.join(dir, 'server.pem')) },
      (raw, res) => {
        const chunks: Buffer[] = [];
        raw.on('data', (c: Buffer) => chunks.push(c));
        raw.on('end', () => {
          const req: Received = { method: raw.method ?? '', url: raw.url ?? '', headers: raw.headers, rawHeaders: raw.rawHeaders, body: Buffer.concat(chunks) };
          this.received.push(req);
          void Promise.resolve(this.behave(req, res, raw)).catch(() => res.destroy());
        });
      },
    );
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', () => r()));
    return this;
  }

  get port(): number {
    return (this.server?.address() as AddressInfo).port;
  }

  /** the base URL by DNS name (the proxy refuses IP literals) */
  url(p = ''): string {
    return `https://localhost:${this.port}${p}`;
  }

  get last(): Received {
    const r = this.received.at(-1);
    if (!r) throw new Error('the destination received nothing');
    return r;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }
}

export interface ProxyCall {
  key?: string;
  destination?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  contentType?: string;
}

/** One call through the proxy (`path` is /proxy or /proxy/...), the body sent as given. */
export async function proxy(method: string, p: string, call: ProxyCall): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...(call.headers ?? {}) };
  if (call.destination !== undefined) headers['BT-PROXY-URL'] = call.destination;
  if (call.contentType) headers['content-type'] = call.contentType;
  const res = await fetch(`${gatewayUrl()}${p}`, {
    method,
    headers: { ...(call.key ? { 'SVC-API-KEY': call.key } : {}), ...headers },
    // a copy into a plain ArrayBuffer: fetch's body type does not take a Buffer over a shared one
    body: typeof call.body === 'string' || call.body === undefined ? call.body : new Uint8Array(call.body),
    // the caller sees what the proxy answered: a redirect is a 302 here, not followed by the test client either
    redirect: 'manual',
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

export { apiRaw };

/**
 * One call with the request target written on the wire exactly as given (fetch would resolve `..` and `\` itself
 * before sending): for paths that try to climb out of a proxy's base path.
 */
export function rawProxy(method: string, target: string, headers: Record<string, string>, body = ''): Promise<ApiResponse> {
  const url = new URL(gatewayUrl());
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method, path: target, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
          resolve({ status: res.statusCode ?? 0, headers: h, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
