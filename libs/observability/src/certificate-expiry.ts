import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { Gauge } from 'prom-client';
import { metricsRegistry } from './metrics';

/** certificate name (`nats_ca`, `nats_client`) → the PEM file it is read from */
const watched = new Map<string, string>();

/**
 * coffer_tls_certificate_expiry_timestamp_seconds{certificate}: when the earliest certificate of a PEM file the process
 * uses expires (Unix time), for an alert weeks ahead. Read when scraped, so a rotated file shows its new date; an
 * unreadable file keeps the last value (the connection that needs it reports the problem).
 */
export const certificateExpiry = new Gauge({
  name: 'coffer_tls_certificate_expiry_timestamp_seconds',
  help: 'Not-after time (Unix seconds) of the earliest-expiring certificate in each TLS file this process uses',
  labelNames: ['certificate'] as const,
  registers: [metricsRegistry],
  collect() {
    for (const [certificate, file] of watched) {
      const notAfter = earliestNotAfter(file);
      if (notAfter !== undefined) this.set({ certificate }, notAfter);
    }
  },
});

/** Reports `file`'s expiry as coffer_tls_certificate_expiry_timestamp_seconds{certificate=name} from now on. */
export function watchCertificateExpiry(name: string, file: string): void {
  watched.set(name, file);
}

/** The earliest not-after (Unix seconds) of the certificates in a PEM file (a CA bundle may hold several). */
export function earliestNotAfter(file: string): number | undefined {
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const times: number[] = [];
  for (const block of pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) {
    try {
      times.push(Math.floor(Date.parse(new X509Certificate(block).validTo) / 1000));
    } catch {
      /* not a certificate: the others still count */
    }
  }
  return times.length ? Math.min(...times) : undefined;
}
