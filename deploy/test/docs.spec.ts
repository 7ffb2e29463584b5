/**
 * The deployment docs stay true: every deploy/ path they name exists, and the snippets meant to be pasted into an
 * overlay render and keep the network invariants.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from './support/kustomize';
import { named, podTemplate } from './support/k8s-helpers';
import { allowedPaths, expectEgress, policiesFor } from './support/network';
import { APPS, APP_NAMES, K8S, WORKSPACE, readText } from './support/workspace';

const DOCS = ['docs/deploying.md', 'docs/nats.md', 'deploy/README.md'];

describe.each(DOCS)('%s', (doc) => {
  it('names only deploy/ files and directories that exist', () => {
    const text = readText(doc);
    const base = doc.startsWith('deploy/') ? 'deploy' : '';
    const mentioned = new Set<string>();
    for (const m of text.matchAll(/`((?:deploy\/)?(?:docker|k8s|nats|test)\/[A-Za-z0-9_.\-/<>|]*)`/g)) {
      const p = (m[1] as string).replace(/\/$/, '');
      if (/[<>|]/.test(p)) continue; // a pattern such as k8s/<app>/
      mentioned.add(p.startsWith('deploy/') ? p : path.join(base || 'deploy', p));
    }
    for (const m of text.matchAll(/`(deploy\/[A-Za-z0-9_.\-/]+)`/g)) mentioned.add((m[1] as string).replace(/\/$/, ''));
    expect(mentioned.size).toBeGreaterThan(0);
    for (const p of mentioned) expect({ path: p, exists: fs.existsSync(path.join(WORKSPACE, p)) }).toEqual({ path: p, exists: true });
  });
});

describe('docs/deploying.md, managed-database patch', () => {
  it('applies to the production overlay and keeps every workload with a database on DNS + PostgreSQL (+ NATS/internet as before)', () => {
    const text = readText('docs/deploying.md');
    const after = text.slice(text.indexOf('For a managed database outside the cluster'));
    const snippet = /```yaml\n([\s\S]*?)```/.exec(after)?.[1];
    expect(snippet).toBeDefined();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-docs-overlay-'));
    try {
      fs.writeFileSync(path.join(dir, 'kustomization.yaml'), `resources:\n  - ${path.join(K8S, 'overlays/production')}\npatches:\n${snippet}`);
      const items = build(dir, WORKSPACE);
      for (const app of [...APP_NAMES, 'migrate']) {
        const workload = app === 'migrate' ? named(items, 'Job', app) : named(items, 'Deployment', app);
        const policies = policiesFor(items, podTemplate(workload).labels).filter((p) => p.metadata?.name !== 'default-deny');
        const paths = allowedPaths(policies);
        const needsDatabase = app === 'migrate' || APPS[app as keyof typeof APPS].needsDatabase;
        expect(paths.egress.some(({ peer }) => peer.ipBlock?.cidr === '10.20.0.0/24')).toBe(needsDatabase);
        expect(paths.egress.some(({ peer }) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'postgres')).toBe(false);
        const facts =
          app === 'migrate'
            ? { nats: false, internet: false }
            : { nats: true, internet: APPS[app as keyof typeof APPS].internetEgress, postgres: needsDatabase };
        expectEgress(paths, facts);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
