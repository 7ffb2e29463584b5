import { lazy, Suspense, useState, type FormEvent } from 'react';
import { api, type ApiBody, type ApiReply, type Schema } from '../lib/api';
import { useCan } from '../lib/session';
import { useAction, useLoad } from '../lib/use-load';
import { go } from '../routes';
import { Json, Loaded, Loading, PageHeader, ProblemView, formatDate } from '../components/ui';
import { DetailHeader, ResourceList, ResourceRoute } from '../components/ResourceList';
import { STARTER_CODE } from './Formulas';

const CodeEditor = lazy(() => import('../components/CodeEditor'));

type Reactor = Schema<'ReactorView'>;

export function Reactors({ id }: { id?: string }) {
  return <ResourceRoute id={id} list={ReactorList} create={NewReactor} detail={ReactorDetail} />;
}

function ReactorList() {
  return (
    <ResourceList
      path="/reactors"
      title="Reactors"
      create={{ permission: 'reactor:create', href: '#/reactors/new', label: 'New reactor' }}
      empty="No reactors yet: a reactor runs a formula (or its own code) with its configuration, on tokens the caller may use."
      card={(r) => (
        <>
          <a href={`#/reactors/${r.id}`}>{r.name}</a> <span className="badge">{r.formula ? `formula ${r.formula.name}` : 'code'}</span>
          <span className="muted"> · {formatDate(r.created_at)}</span>
        </>
      )}
    />
  );
}

/** The operator's JSON as the API takes it (`T`): the gateway checks it. */
function parseJson<T>(text: string, what: string): T {
  try {
    return (text.trim() ? JSON.parse(text) : {}) as T;
  } catch {
    throw new Error(`${what} must be JSON`);
  }
}

function NewReactor() {
  const [formulas] = useLoad(() => api('GET', '/reactor-formulas', { query: { size: 100 } }), []);
  const [name, setName] = useState('');
  const [source, setSource] = useState<'formula' | 'code'>('formula');
  const [formulaId, setFormulaId] = useState('');
  const [code, setCode] = useState(STARTER_CODE);
  const [configuration, setConfiguration] = useState('{}');
  const [applicationId, setApplicationId] = useState('');
  const { busy, problem, run } = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await run(() => {
      const config = parseJson<Schema<'CodeReactorRequest'>['configuration'] & Schema<'CreateReactorRequest'>['configuration']>(configuration, 'Configuration');
      const body: ApiBody<'POST', '/reactors'> = {
        name,
        configuration: config,
        ...(source === 'formula' ? { formula: { id: formulaId } } : { code }),
        ...(applicationId ? { application: { id: applicationId } } : {}),
      };
      return api('POST', '/reactors', { body });
    });
    if (res) go('reactors', res.id);
  };
  return (
    <>
      <PageHeader title="New reactor" />
      <form className="card form" onSubmit={(e) => void submit(e)}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <div role="radiogroup" aria-label="Reactor source" className="inline">
          <label>
            <input type="radio" name="source" checked={source === 'formula'} onChange={() => setSource('formula')} /> From a formula
          </label>
          <label>
            <input type="radio" name="source" checked={source === 'code'} onChange={() => setSource('code')} /> Its own code
          </label>
        </div>
        {source === 'formula' ? (
          <label>
            Formula
            {/* named explicitly: a wrapping label would name it "Formula" plus the chosen option's text */}
            <select aria-label="Formula" value={formulaId} onChange={(e) => setFormulaId(e.target.value)} required>
              <option value="">Choose a formula</option>
              {formulas.state === 'ready'
                ? formulas.data.data.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.name}
                    </option>
                  ))
                : null}
            </select>
          </label>
        ) : (
          <Suspense fallback={<Loading label="Loading the editor…" />}>
            <CodeEditor value={code} onChange={setCode} label="Reactor code" />
          </Suspense>
        )}
        <label>
          Configuration (JSON object)
          <textarea rows={4} value={configuration} onChange={(e) => setConfiguration(e.target.value)} spellCheck={false} />
        </label>
        <label>
          Application id (optional: the private application whose token access the reactor uses)
          <input value={applicationId} onChange={(e) => setApplicationId(e.target.value)} />
        </label>
        <ProblemView problem={problem} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create reactor'}
        </button>
      </form>
    </>
  );
}

function ReactorDetail({ id }: { id: string }) {
  const [reactor] = useLoad(() => api('GET', '/reactors/{id}', { params: { id } }), [id]);
  return <Loaded load={reactor}>{(r) => <ReactorView reactor={r} />}</Loaded>;
}

function ReactorView({ reactor }: { reactor: Reactor }) {
  const can = useCan();
  const [args, setArgs] = useState('{}');
  // a management key may not invoke (token:use belongs to private applications): a run is made with a private key,
  // typed for the runs on this page and kept only in this page's memory
  const [runKey, setRunKey] = useState('');
  const [result, setResult] = useState<unknown>(null);
  const [logs, setLogs] = useState<string[]>([]);
  const [accepted, setAccepted] = useState<ApiReply<'POST', '/reactors/{id}/react-async'> | null>(null);
  const [elapsed, setElapsed] = useState<number | null>(null);
  const runner = useAction();
  const other = useAction();
  const react = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    setLogs([]);
    setAccepted(null);
    const started = performance.now();
    // capture_logs: the formula's console output comes back with the result (or with the problem when it fails)
    const res = await runner.run(() =>
      api('POST', '/reactors/{id}/react', {
        params: { id: reactor.id },
        body: { args: parseJson<Schema<'ReactRequest'>['args']>(args, 'Arguments'), capture_logs: true },
        asKey: runKey || undefined,
      }),
    );
    setElapsed(Math.round(performance.now() - started));
    if (res !== undefined) {
      // a 202 (ReactAccepted) answers only a callback_url, which a test run does not send
      const { logs: runLogs, ...rest } = 'logs' in res ? res : { ...res, logs: undefined };
      setLogs(runLogs ?? []);
      setResult(rest);
    }
  };
  const reactAsync = async () => {
    setResult(null);
    const res = await runner.run(() =>
      api('POST', '/reactors/{id}/react-async', {
        params: { id: reactor.id },
        body: { args: parseJson<Schema<'ReactAsyncRequest'>['args']>(args, 'Arguments') },
        asKey: runKey || undefined,
      }),
    );
    if (res) setAccepted(res);
  };
  const remove = async () => {
    if (!window.confirm(`Delete the reactor “${reactor.name}”?`)) return;
    if (await other.run(() => api('DELETE', '/reactors/{id}', { params: { id: reactor.id } }).then(() => true))) go('reactors');
  };
  return (
    <>
      <DetailHeader title={reactor.name} back={{ href: '#/reactors', label: 'All reactors' }} onDelete={can('reactor:delete') ? remove : undefined} />
      <ProblemView problem={other.problem} />
      <p className="muted">
        <code>{reactor.id}</code> · {reactor.formula ? `formula ${reactor.formula.name}` : 'code reactor'}
        {reactor.application ? ` · application ${reactor.application.id}` : ''}
      </p>
      <section className="card" aria-labelledby="config-title">
        <h2 id="config-title">Configuration</h2>
        <Json value={reactor.configuration} label="Reactor configuration" />
        {reactor.code ? (
          <Suspense fallback={<Loading />}>
            <CodeEditor value={reactor.code} onChange={() => undefined} label="Reactor code" readOnly />
          </Suspense>
        ) : null}
      </section>
      <section className="card" aria-labelledby="run-title">
        <h2 id="run-title">Test run</h2>
        <form onSubmit={(e) => void react(e)} className="form">
          <label>
            Run with the key of a private application holding token:use (not stored; a management key may not invoke)
            <input type="password" autoComplete="off" value={runKey} onChange={(e) => setRunKey(e.target.value)} spellCheck={false} />
          </label>
          <label>
            Arguments (JSON object; token ids in {'{{ }}'} are detokenized for the run)
            <textarea rows={4} value={args} onChange={(e) => setArgs(e.target.value)} spellCheck={false} />
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={runner.busy}>
              {runner.busy ? 'Running…' : 'Run'}
            </button>
            <button type="button" onClick={() => void reactAsync()} disabled={runner.busy}>
              Run asynchronously
            </button>
          </div>
        </form>
        {runner.busy ? <p role="status">Running…</p> : null}
        <ProblemView problem={runner.problem} />
        {result !== null ? (
          <div aria-live="polite">
            <h3>Result{elapsed !== null ? ` (${elapsed} ms)` : ''}</h3>
            <Json value={result} label="Reactor result" />
          </div>
        ) : null}
        <RunLogs lines={runner.problem?.logs ?? (result !== null ? logs : [])} />
        {accepted ? (
          <p role="status">
            Accepted: request <code>{accepted.asyncReactorRequestId}</code>.{' '}
            <a href={`#/results/${encodeURIComponent(`${reactor.id}:${accepted.asyncReactorRequestId}`)}`}>Follow the result</a>
          </p>
        ) : null}
      </section>
    </>
  );
}

/** A test run's console output (what the formula printed), as the API returned it with the result or the problem. */
function RunLogs({ lines }: { lines: string[] }) {
  if (!lines.length) return null;
  return (
    <div>
      <h3 id="run-logs-title">Logs</h3>
      <pre className="logs" aria-labelledby="run-logs-title" tabIndex={0}>
        {lines.join('\n')}
      </pre>
    </div>
  );
}
