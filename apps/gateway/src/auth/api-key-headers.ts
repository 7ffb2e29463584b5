import { gatewayConfig } from '../config';

/** docs/api-reference.md: SVC-* headers plus `<P>-*` aliases from HEADER_ALIAS_PREFIXES (e.g. BT → BT-API-KEY). */
export class HeaderNames {
  readonly apiKey: string[];
  readonly idempotencyKey: string[];
  readonly traceId: string[];

  /** `aliasPrefixes`: a comma list or the list itself; by default the configuration's HEADER_ALIAS_PREFIXES */
  constructor(aliasPrefixes: string | readonly string[] = gatewayConfig().headerAliasPrefixes) {
    const prefixes = [
      'svc',
      ...(typeof aliasPrefixes === 'string' ? aliasPrefixes.split(',') : aliasPrefixes).map((p) => p.trim().toLowerCase()).filter(Boolean),
    ];
    this.apiKey = prefixes.map((p) => `${p}-api-key`);
    this.idempotencyKey = prefixes.map((p) => `${p}-idempotency-key`);
    this.traceId = prefixes.map((p) => `${p}-trace-id`);
  }

  get all(): string[] {
    return [...this.apiKey, ...this.idempotencyKey, ...this.traceId];
  }

  static first(headers: Record<string, string | string[] | undefined>, names: string[]): string | undefined {
    for (const n of names) {
      const v = headers[n];
      const s = Array.isArray(v) ? v[0] : v;
      if (s) return s;
    }
    return undefined;
  }
}
