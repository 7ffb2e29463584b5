import type { ApplicationType, Transform } from '@coffer/contracts';

/** docs/access-control.md: which application types may hold a permission, and the transform it implies on read. */
export const PERMISSIONS: Record<string, { types: ApplicationType[]; transform?: Transform }> = {
  'token:create': { types: ['public', 'private'], transform: 'mask' },
  'token:update': { types: ['public', 'private'], transform: 'mask' },
  'token:read': { types: ['private'], transform: 'mask' },
  'token:search': { types: ['private'], transform: 'mask' },
  'token:use': { types: ['private'], transform: 'reveal' },
  'token:delete': { types: ['private'] },
  // token intents (docs/token-intents.md): a public key collects data as an intent, a private key reads or drops it;
  // none implies a transform (an intent's data is never returned)
  'token-intent:create': { types: ['public', 'private'] },
  'token-intent:read': { types: ['private'] },
  'token-intent:delete': { types: ['private'] },
  'proxy:invoke': { types: ['private'] },
  'proxy:create': { types: ['management'] },
  'proxy:read': { types: ['management'] },
  'proxy:update': { types: ['management'] },
  'proxy:delete': { types: ['management'] },
  'reactor:create': { types: ['management'] },
  'reactor:read': { types: ['management'] },
  'reactor:update': { types: ['management'] },
  'reactor:delete': { types: ['management'] },
  'application:create': { types: ['management'] },
  'application:read': { types: ['management'] },
  'application:update': { types: ['management'] },
  'application:delete': { types: ['management'] },
  'tenant:read': { types: ['management'] },
  'tenant:update': { types: ['management'] },
  'log:read': { types: ['management'] },
  'webhook:create': { types: ['management'] },
  'webhook:read': { types: ['management'] },
  'webhook:update': { types: ['management'] },
  'webhook:delete': { types: ['management'] },
  // tenant members and invitations (docs/members.md)
  'tenant:member:read': { types: ['management'] },
  'tenant:member:update': { types: ['management'] },
  'tenant:member:delete': { types: ['management'] },
  'tenant:invitation:create': { types: ['management'] },
  'tenant:invitation:read': { types: ['management'] },
  'tenant:invitation:update': { types: ['management'] },
  'tenant:invitation:delete': { types: ['management'] },
  // held by the OWNER role only among people, so no one else can mint a key that hands the tenant over
  'tenant:owner:transfer': { types: ['management'] },
};

export type Permission = keyof typeof PERMISSIONS;

export const ALL_MANAGEMENT_PERMISSIONS = Object.entries(PERMISSIONS)
  .filter(([, p]) => p.types.includes('management'))
  .map(([name]) => name);

export function isTokenPermission(p: string): boolean {
  return p.startsWith('token:');
}
