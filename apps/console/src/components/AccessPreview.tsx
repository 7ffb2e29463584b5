import { useState, type FormEvent } from 'react';
import { api, type Schema } from '../lib/api';
import { useAction } from '../lib/use-load';
import { ProblemView } from './ui';

type Preview = Schema<'AccessPreviewView'>;

/**
 * What the application (or a session it authorizes with the given permissions) may do with a token in a container,
 * as the API decides it (POST /applications/{id}/access-preview): nothing is recomputed here.
 */
export function AccessPreview({ applicationId, version }: { applicationId: string; version: number }) {
  const [container, setContainer] = useState('/pci/');
  const [asSession, setAsSession] = useState(false);
  const [sessionPermissions, setSessionPermissions] = useState('token:read');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [seen, setSeen] = useState(version);
  const { busy, problem, run } = useAction();
  const ask = async (e?: FormEvent) => {
    e?.preventDefault();
    const body = {
      container,
      ...(asSession
        ? {
            session: {
              permissions: sessionPermissions
                .split(',')
                .map((p) => p.trim())
                .filter(Boolean),
            },
          }
        : {}),
    };
    const res = await run(() => api('POST', '/applications/{id}/access-preview', { params: { id: applicationId }, body }));
    if (res) setPreview(res);
    setSeen(version);
  };
  const stale = preview && seen !== version;
  return (
    <section aria-labelledby="preview-title" className="card">
      <h2 id="preview-title">Access preview</h2>
      <p className="hint">
        What this application — or a session it authorizes — may do with a token in a container, decided by the gateway exactly as for a real token.
      </p>
      <form onSubmit={(e) => void ask(e)} className="inline">
        <label>
          Token container
          <input value={container} onChange={(e) => setContainer(e.target.value)} required />
        </label>
        <label>
          <input type="checkbox" checked={asSession} onChange={(e) => setAsSession(e.target.checked)} /> As a session it authorizes
        </label>
        {asSession ? (
          <label>
            Session permissions (comma-separated)
            <input value={sessionPermissions} onChange={(e) => setSessionPermissions(e.target.value)} />
          </label>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Preview'}
        </button>
      </form>
      <ProblemView problem={problem} />
      {preview ? (
        <div aria-live="polite">
          {stale ? <p className="hint">The grants changed since this preview: preview again.</p> : null}
          <p>
            {preview.subject === 'session' ? 'A session' : 'The application'} and a token in <code>{preview.container}</code>
            {preview.matched_rule ? (
              <>
                {' '}
                — decided by rule {preview.matched_rule.priority} (<code>{preview.matched_rule.container}</code>)
              </>
            ) : null}
            :
          </p>
          <table className="preview">
            <caption className="sr-only">Access decisions</caption>
            <thead>
              <tr>
                <th scope="col">Permission</th>
                <th scope="col">Decision</th>
              </tr>
            </thead>
            <tbody>
              {preview.decisions.map((d) => (
                <tr key={d.permission} data-testid={`decision-${d.permission}`}>
                  <td>{d.permission}</td>
                  <td className={d.allowed ? 'allowed' : 'denied'}>{d.allowed ? `allowed (${d.transform})` : 'denied'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
