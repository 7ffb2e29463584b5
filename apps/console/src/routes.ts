import { useEffect, useState } from 'react';

/** The console's pages, in the order of the menu, with the permission that shows each (hidden without it). */
export interface PageEntry {
  path: string;
  label: string;
  /** any one of these shows the page; none listed: every key */
  anyOf: string[];
}

export const PAGES: PageEntry[] = [
  { path: 'overview', label: 'Overview', anyOf: [] },
  { path: 'applications', label: 'Applications', anyOf: ['application:read'] },
  { path: 'formulas', label: 'Formulas', anyOf: ['reactor:read'] },
  { path: 'reactors', label: 'Reactors', anyOf: ['reactor:read'] },
  { path: 'results', label: 'Async results', anyOf: ['reactor:read', 'token:use'] },
  { path: 'tokens', label: 'Tokens', anyOf: ['token:read'] },
  { path: 'logs', label: 'Logs', anyOf: ['log:read'] },
  { path: 'webhooks', label: 'Webhooks', anyOf: ['webhook:read'] },
  { path: 'proxies', label: 'Proxies', anyOf: ['proxy:read'] },
  { path: 'members', label: 'Members', anyOf: ['tenant:member:read'] },
  { path: 'keys', label: 'Keys', anyOf: ['tenant:read'] },
  { path: 'settings', label: 'Settings', anyOf: ['tenant:read'] },
];

/** The route is the location's hash (#/applications/<id>): the gateway serves one page, and no server route changes. */
export function parseHash(hash: string): { page: string; id?: string } {
  const [page = 'overview', id] = hash.replace(/^#\/?/, '').split('/');
  return { page: page || 'overview', id: id ? decodeURIComponent(id) : undefined };
}

export function useRoute(): { page: string; id?: string } {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return parseHash(hash);
}

export function go(page: string, id?: string): void {
  window.location.hash = id ? `#/${page}/${encodeURIComponent(id)}` : `#/${page}`;
}
