import type { ApiBody, Schema } from './api';
import { ApiError } from './problem';

/** A pre-configured proxy as GET /proxies/{id} shows it (with its key and configuration: proxy:read). */
export type ProxyView = Schema<'ProxyView'>;

/** One step of a proxy's request or response transforms (the server checks each by its type: docs/proxy.md). */
export type ProxyTransform = ProxyView['request_transforms'][number];

/** One row of the configuration editor (`id` keeps React's row identity across edits). */
export interface ConfigRow {
  id: number;
  name: string;
  value: string;
}

let nextRowId = 1;
export function configRow(name = '', value = ''): ConfigRow {
  return { id: nextRowId++, name, value };
}

/** The configuration as editable rows, in the order the API gave them (one empty row when there is none). */
export function configRows(configuration: Record<string, string | null> | undefined): ConfigRow[] {
  const rows = Object.entries(configuration ?? {}).map(([name, value]) => configRow(name, value ?? ''));
  return rows.length ? rows : [configRow()];
}

/** What the proxy form holds; `proxyBody` turns it into the body of POST /proxies or PUT /proxies/{id}. */
export interface ProxyFormState {
  name: string;
  destinationUrl: string;
  requireAuth: boolean;
  disableDetokenization: boolean;
  applicationId: string;
  config: ConfigRow[];
  requestTransforms: string;
  responseTransforms: string;
}

export function initialProxyForm(proxy: ProxyView | null): ProxyFormState {
  return {
    name: proxy?.name ?? '',
    destinationUrl: proxy?.destination_url ?? '',
    requireAuth: proxy?.require_auth ?? true,
    disableDetokenization: proxy?.disable_detokenization ?? false,
    applicationId: proxy?.application_id ?? '',
    config: configRows(proxy?.configuration),
    requestTransforms: transformsText(proxy?.request_transforms),
    responseTransforms: transformsText(proxy?.response_transforms),
  };
}

export function transformsText(list: ProxyTransform[] | undefined): string {
  return list?.length ? JSON.stringify(list, null, 2) : '[]';
}

/** A JSON array of objects, or the field's errors (the server checks each transform for real). */
export function parseTransforms(text: string, field: string, errors: Record<string, string[]>): ProxyTransform[] {
  if (!text.trim()) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    errors[field] = [`must be JSON (${err instanceof Error ? err.message : String(err)})`];
    return [];
  }
  if (!Array.isArray(value)) {
    errors[field] = ['must be a JSON array of transforms, such as [{"type": "append_header", …}]'];
    return [];
  }
  const notObjects = value.map((t, i) => [t, i] as const).filter(([t]) => typeof t !== 'object' || t === null || Array.isArray(t));
  if (notObjects.length) {
    errors[field] = notObjects.map(([, i]) => `[${i}] must be an object with a type`);
    return [];
  }
  return value as ProxyTransform[];
}

/** The rows as the configuration object (rows with neither name nor value are left out). */
export function configurationOf(rows: ConfigRow[], errors: Record<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  const wrong: string[] = [];
  rows.forEach((r, i) => {
    const name = r.name.trim();
    if (!name && !r.value) return;
    if (!name) wrong.push(`entry ${i + 1} needs a name`);
    else if (Object.prototype.hasOwnProperty.call(out, name)) wrong.push(`${name} is given twice`);
    else out[name] = r.value;
  });
  if (wrong.length) errors['configuration'] = wrong;
  return out;
}

/**
 * The request body of the form (PUT replaces everything but the key, so every member is sent), or an ApiError with
 * the form's own field errors when it cannot be sent (nothing is sent then).
 */
export function proxyBody(form: ProxyFormState): ApiBody<'POST', '/proxies'> {
  const errors: Record<string, string[]> = {};
  const configuration = configurationOf(form.config, errors);
  const requestTransforms = parseTransforms(form.requestTransforms, 'request_transforms', errors);
  const responseTransforms = parseTransforms(form.responseTransforms, 'response_transforms', errors);
  if (Object.keys(errors).length)
    throw new ApiError({ title: 'The form is not complete', status: 0, detail: 'Nothing was sent: correct the fields marked below.', errors });
  return {
    name: form.name,
    destination_url: form.destinationUrl.trim(),
    require_auth: form.requireAuth,
    disable_detokenization: form.disableDetokenization,
    application: form.applicationId.trim() ? { id: form.applicationId.trim() } : null,
    configuration,
    request_transforms: requestTransforms,
    response_transforms: responseTransforms,
  };
}

/** The key as shown until revealed: its last four characters. */
export function maskKey(key: string): string {
  return key.length > 4 ? `${'•'.repeat(Math.min(key.length - 4, 28))}${key.slice(-4)}` : '••••';
}

/** How many transforms the proxy runs, both directions. */
export function transformCount(proxy: Pick<ProxyView, 'request_transforms' | 'response_transforms'>): number {
  return (proxy.request_transforms?.length ?? 0) + (proxy.response_transforms?.length ?? 0);
}
