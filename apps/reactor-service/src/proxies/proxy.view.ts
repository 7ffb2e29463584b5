import { type ProxyTransformView, type ProxyView, withStamps } from '@coffer/contracts';
import type { ProxyRow } from './proxy.repository';
import type { ProxySecrets } from './proxy-vault';

/** A proxy as the API shows it: key and configuration included (proxy:read is a management permission). */
export function toProxyView(row: ProxyRow, secrets: ProxySecrets): ProxyView {
  const request = row.requestTransforms as unknown as ProxyTransformView[];
  const response = row.responseTransforms as unknown as ProxyTransformView[];
  const view: ProxyView = {
    id: row.id,
    key: secrets.key,
    tenant_id: row.tenantId,
    name: row.name,
    destination_url: row.destinationUrl,
    state: 'active',
    request_transforms: request,
    response_transforms: response,
    ...(request.length ? { request_transform: request[0] } : {}),
    ...(response.length ? { response_transform: response[0] } : {}),
    configuration: secrets.configuration,
    require_auth: row.requireAuth,
    disable_detokenization: row.disableDetokenization,
    created_at: row.createdAt.toISOString(),
  };
  if (row.applicationId) view.application_id = row.applicationId;
  return withStamps(view, row);
}
