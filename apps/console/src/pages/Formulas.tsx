import { lazy, Suspense, useState, type FormEvent } from 'react';
import { api, type ApiBody, type Schema } from '../lib/api';
import { useCan } from '../lib/session';
import { useAction, useLoad } from '../lib/use-load';
import { go } from '../routes';
import { Loaded, Loading, SaveControls, formatDate } from '../components/ui';
import { DetailHeader, ResourceList, ResourceRoute } from '../components/ResourceList';

const CodeEditor = lazy(() => import('../components/CodeEditor'));

export type Formula = Schema<'ReactorFormulaView'>;

export const STARTER_CODE = `module.exports = async function (req) {
  const { args, configuration } = req;
  return { raw: { echoed: args } };
};
`;

export function Formulas({ id }: { id?: string }) {
  return <ResourceRoute id={id} list={FormulaList} create={FormulaEditor} detail={FormulaEditor} />;
}

function FormulaList() {
  return (
    <ResourceList
      path="/reactor-formulas"
      title="Formulas"
      create={{ permission: 'reactor:create', href: '#/formulas/new', label: 'New formula' }}
      empty="No formulas yet: a formula is reusable reactor code with declared configuration and parameters."
      card={(f) => (
        <>
          <a href={`#/formulas/${f.id}`}>{f.name}</a> <span className="badge">{f.type}</span>
          <span className="muted"> {f.description}</span>
          <span className="muted"> · {formatDate(f.created_at)}</span>
        </>
      )}
    />
  );
}

function FormulaEditor({ id }: { id?: string }) {
  const [existing] = useLoad(() => (id ? api('GET', '/reactor-formulas/{id}', { params: { id } }) : Promise.resolve(null)), [id]);
  return <Loaded load={existing}>{(f) => <FormulaForm formula={f} />}</Loaded>;
}

function FormulaForm({ formula }: { formula: Formula | null }) {
  const can = useCan();
  const [name, setName] = useState(formula?.name ?? '');
  const [description, setDescription] = useState(formula?.description ?? '');
  const [code, setCode] = useState(formula?.code ?? STARTER_CODE);
  const [configuration, setConfiguration] = useState(JSON.stringify(formula?.configuration ?? [], null, 2));
  const [parameters, setParameters] = useState(JSON.stringify(formula?.request_parameters ?? [], null, 2));
  const [saved, setSaved] = useState(false);
  const { busy, problem, run } = useAction();
  const writable = formula ? can('reactor:update') : can('reactor:create');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    // the JSON the operator typed, as the API takes it: the gateway checks it
    const body = (): ApiBody<'POST', '/reactor-formulas'> => ({
      name,
      description: description || undefined,
      type: 'private',
      code,
      configuration: JSON.parse(configuration) as Formula['configuration'],
      request_parameters: JSON.parse(parameters) as Formula['request_parameters'],
    });
    const res = await run(async () => {
      let parsed: ApiBody<'POST', '/reactor-formulas'>;
      try {
        parsed = body();
      } catch {
        throw new Error('Configuration and request parameters must be JSON arrays');
      }
      return formula ? api('PUT', '/reactor-formulas/{id}', { params: { id: formula.id }, body: parsed }) : api('POST', '/reactor-formulas', { body: parsed });
    });
    if (res) {
      setSaved(true);
      if (!formula) go('formulas', res.id);
    }
  };
  const remove = async () => {
    if (!formula || !window.confirm(`Delete the formula “${formula.name}”?`)) return;
    if (await run(() => api('DELETE', '/reactor-formulas/{id}', { params: { id: formula.id } }).then(() => true))) go('formulas');
  };
  return (
    <>
      <DetailHeader
        title={formula ? formula.name : 'New formula'}
        back={{ href: '#/formulas', label: 'All formulas' }}
        onDelete={formula && can('reactor:delete') ? remove : undefined}
      />
      <form className="card form" onSubmit={(e) => void submit(e)}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required disabled={!writable} />
        </label>
        <label>
          Description
          <input value={description} onChange={(e) => setDescription(e.target.value)} disabled={!writable} />
        </label>
        <span className="label" id="code-label">
          Code
        </span>
        <Suspense fallback={<Loading label="Loading the editor…" />}>
          <CodeEditor value={code} onChange={setCode} label="Formula code" readOnly={!writable} />
        </Suspense>
        <label>
          Configuration (JSON: name, description, type)
          <textarea rows={4} value={configuration} onChange={(e) => setConfiguration(e.target.value)} disabled={!writable} spellCheck={false} />
        </label>
        <label>
          Request parameters (JSON: name, description, type, optional)
          <textarea rows={4} value={parameters} onChange={(e) => setParameters(e.target.value)} disabled={!writable} spellCheck={false} />
        </label>
        <SaveControls problem={problem} busy={busy} writable={writable} saved={saved} label={formula ? 'Save formula' : 'Create formula'} />
      </form>
    </>
  );
}
