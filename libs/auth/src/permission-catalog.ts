import { APPLICATION_TYPES, type ApplicationType } from '@coffer/contracts';
import { PERMISSIONS } from './permissions';

/** What each permission allows, as `GET /permissions` describes it. */
const DESCRIPTIONS: Record<string, string> = {
  'token:create': 'Create tokens (the reply is masked)',
  'token:update': 'Update tokens (the reply is masked)',
  'token:read': 'Read and list tokens, masked',
  'token:search': 'Search tokens, masked',
  'token:use': 'Use token data: read revealed, detokenize, invoke reactors',
  'token:delete': 'Delete tokens',
  'token-intent:create': 'Create token intents (the reply never holds the data)',
  'token-intent:read': 'Read token intents (never their data)',
  'token-intent:delete': 'Delete token intents',
  'proxy:invoke': 'Send requests through the proxy (detokenizing also needs token:use on the tokens)',
  'proxy:create': 'Create pre-configured proxies',
  'proxy:read': 'Read pre-configured proxies (with their keys and configuration)',
  'proxy:update': 'Update pre-configured proxies',
  'proxy:delete': 'Delete pre-configured proxies',
  'reactor:create': 'Create reactors and reactor formulas',
  'reactor:read': 'Read reactors, reactor formulas and asynchronous reactor results',
  'reactor:update': 'Update reactors and reactor formulas',
  'reactor:delete': 'Delete reactors and reactor formulas',
  'application:create': 'Create applications',
  'application:read': 'Read applications and their keys (never a key itself)',
  'application:update': 'Update applications, create and delete their keys, regenerate keys',
  'application:delete': 'Delete applications',
  'tenant:read': 'Read the tenant and its webhook secret',
  'tenant:update': 'Update the tenant settings, rotate the webhook secret',
  'log:read': 'Read the audit log',
  'webhook:create': 'Create webhooks (event subscriptions)',
  'webhook:read': 'Read webhooks and their deliveries',
  'webhook:update': 'Update webhooks, re-send failed deliveries',
  'webhook:delete': 'Delete webhooks',
  'tenant:member:read': 'Read the tenant members and its owner',
  'tenant:member:update': "Change members' roles",
  'tenant:member:delete': 'Remove members (their console sessions end at once)',
  'tenant:invitation:create': 'Invite people by email',
  'tenant:invitation:read': 'Read invitations (never their links)',
  'tenant:invitation:update': 'Resend invitations (the old link stops working)',
  'tenant:invitation:delete': 'Revoke invitations',
  'tenant:owner:transfer': 'Hand the tenant to another member (people: the owner only)',
};

export interface PermissionView {
  type: string;
  description: string;
  application_types: ApplicationType[];
}

/** Every permission with the application types that may hold it; with `applicationType`, only those it may hold. */
export function permissionCatalog(applicationType?: ApplicationType): PermissionView[] {
  return Object.entries(PERMISSIONS)
    .filter(([, p]) => !applicationType || p.types.includes(applicationType))
    .map(([type, p]) => ({ type, description: DESCRIPTIONS[type] ?? type, application_types: [...p.types] }));
}

export function isApplicationType(value: unknown): value is ApplicationType {
  return typeof value === 'string' && (APPLICATION_TYPES as readonly string[]).includes(value);
}
