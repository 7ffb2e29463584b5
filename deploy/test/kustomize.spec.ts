/**
 * The resolver the manifest tests rely on: it must render like Kustomize and refuse what it does not implement.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KustomizeError, applyJsonPatch, build, parseImage, type K8sObject } from './support/kustomize';

interface MiniDeployment extends K8sObject {
  spec: { template: { spec: { containers: { image: string; resources: unknown }[] } } };
}

function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-kustomize-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const deployment = (name: string, image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
    app.kubernetes.io/name: ${name}
spec:
  selector:
    matchLabels:
      app.kubernetes.io/name: ${name}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${name}
    spec:
      containers:
        - name: ${name}
          image: ${image}
          resources:
            requests:
              cpu: 100m
`;

describe('kustomize resolver', () => {
  const dirs: string[] = [];
  const make = (files: Record<string, string>) => {
    const d = tree(files);
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('follows directory and file resources and applies namespace, images and JSON 6902 patches', () => {
    const root = make({
      'base/kustomization.yaml': 'resources:\n  - deployment.yaml\n',
      'base/deployment.yaml': deployment('api', 'coffer/api'),
      'other/kustomization.yaml': 'resources:\n  - ns.yaml\n',
      'other/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: prod\n---\n',
      'overlay/kustomization.yaml': [
        'namespace: prod',
        'resources:',
        '  - ../base',
        '  - ../other',
        '  - extra.yaml',
        'images:',
        '  - name: coffer/api',
        '    newName: registry.example.com/coffer/api',
        '    newTag: "1.2.3"',
        'patches:',
        '  - target:',
        '      kind: Deployment',
        '      name: api',
        '    patch: |-',
        '      - op: replace',
        '        path: /spec/template/spec/containers/0/resources/requests/cpu',
        '        value: 50m',
        '      - op: add',
        '        path: /spec/template/spec/containers/0/resources/limits',
        '        value: {cpu: "1"}',
      ].join('\n'),
      'overlay/extra.yaml': 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: api\n',
    });
    const out = build(path.join(root, 'overlay'), root);
    expect(out.map((r) => `${r.object.kind}/${r.object.metadata.name}@${r.source}`)).toEqual([
      'Deployment/api@base/deployment.yaml',
      'Namespace/prod@other/ns.yaml',
      'ServiceAccount/api@overlay/extra.yaml',
    ]);
    const [dep, ns, sa] = out.map((r) => r.object) as unknown as [MiniDeployment, K8sObject, K8sObject];
    expect(dep.metadata.namespace).toBe('prod');
    expect(sa.metadata.namespace).toBe('prod');
    expect(ns.metadata.namespace).toBeUndefined();
    const container = dep.spec.template.spec.containers[0];
    expect(container.image).toBe('registry.example.com/coffer/api:1.2.3');
    expect(container.resources).toEqual({ requests: { cpu: '50m' }, limits: { cpu: '1' } });
  });

  it('refuses fields it does not implement instead of ignoring them', () => {
    const root = make({ 'kustomization.yaml': 'resources: []\ncommonLabels:\n  a: b\n' });
    expect(() => build(root)).toThrow(/field "commonLabels" is not supported/);
  });

  it('refuses strategic-merge patches', () => {
    const root = make({
      'kustomization.yaml': 'resources:\n  - d.yaml\npatches:\n  - target: {kind: Deployment}\n    patch: |-\n      spec:\n        replicas: 2\n',
      'd.yaml': deployment('api', 'coffer/api'),
    });
    expect(() => build(root)).toThrow(/only JSON 6902 patches/);
  });

  it('fails when a patch target or an image entry matches nothing', () => {
    const patchMiss = make({
      'kustomization.yaml':
        'resources:\n  - d.yaml\npatches:\n  - target: {kind: Deployment, name: apii}\n    patch: |-\n      - op: remove\n        path: /spec/selector\n',
      'd.yaml': deployment('api', 'coffer/api'),
    });
    expect(() => build(patchMiss)).toThrow(/matches no object/);
    const imageMiss = make({
      'kustomization.yaml': 'resources:\n  - d.yaml\nimages:\n  - name: coffer/apii\n    newTag: "1"\n',
      'd.yaml': deployment('api', 'coffer/api'),
    });
    expect(() => build(imageMiss)).toThrow(/matches no container/);
  });

  it('fails on a replace of a path that does not exist, and on duplicates', () => {
    const badPath = make({
      'kustomization.yaml':
        'resources:\n  - d.yaml\npatches:\n  - target: {kind: Deployment}\n    patch: |-\n      - op: replace\n        path: /spec/replicas\n        value: 3\n',
      'd.yaml': deployment('api', 'coffer/api'),
    });
    expect(() => build(badPath)).toThrow(/\/spec\/replicas does not exist/);
    const dup = make({
      'kustomization.yaml': 'resources:\n  - a.yaml\n  - b.yaml\n',
      'a.yaml': deployment('api', 'coffer/api'),
      'b.yaml': deployment('api', 'coffer/other'),
    });
    expect(() => build(dup)).toThrow(/defined twice/);
  });

  it('keeps file resources inside the kustomization root', () => {
    const root = make({
      'overlay/kustomization.yaml': 'resources:\n  - ../d.yaml\n',
      'd.yaml': deployment('api', 'coffer/api'),
    });
    expect(() => build(path.join(root, 'overlay'))).toThrow(KustomizeError);
  });

  it('parses image references like Kustomize', () => {
    expect(parseImage('coffer/api')).toEqual({ name: 'coffer/api', digest: undefined });
    expect(parseImage('registry:5000/coffer/api:1.0')).toEqual({ name: 'registry:5000/coffer/api', tag: '1.0', digest: undefined });
    expect(parseImage(`r/api@sha256:${'a'.repeat(64)}`)).toEqual({ name: 'r/api', digest: `sha256:${'a'.repeat(64)}` });
  });

  it('implements RFC 6902 add/remove/replace/test without touching its input', () => {
    const doc = { a: [1, 2], b: { 'x/y': 1 } };
    const out = applyJsonPatch(doc, [
      { op: 'add', path: '/a/-', value: 3 },
      { op: 'remove', path: '/a/0' },
      { op: 'replace', path: '/b/x~1y', value: 2 },
      { op: 'test', path: '/b/x~1y', value: 2 },
    ]);
    expect(out).toEqual({ a: [2, 3], b: { 'x/y': 2 } });
    expect(doc).toEqual({ a: [1, 2], b: { 'x/y': 1 } });
    expect(() => applyJsonPatch(doc, [{ op: 'test', path: '/a/0', value: 9 }])).toThrow(/test failed/);
  });
});
