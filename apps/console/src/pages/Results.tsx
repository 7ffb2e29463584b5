import { useEffect, useState, type FormEvent } from 'react';
import { api, type ApiReply } from '../lib/api';
import { useAction } from '../lib/use-load';
import { Json, PageHeader, ProblemView, formatDate } from '../components/ui';

type JobResult = ApiReply<'GET', '/reactors/{id}/results/{requestId}'>;

/** The result of an asynchronous react (POST /reactors/{id}/react-async), polled until it is done. */
export function Results({ id }: { id?: string }) {
  const [reactorId, setReactorId] = useState(id?.split(':')[0] ?? '');
  const [requestId, setRequestId] = useState(id?.split(':')[1] ?? '');
  const [job, setJob] = useState<JobResult | null>(null);
  const { busy, problem, run } = useAction();
  const fetchResult = async (e?: FormEvent) => {
    e?.preventDefault();
    const res = await run(() => api('GET', '/reactors/{id}/results/{requestId}', { params: { id: reactorId, requestId } }));
    if (res) setJob(res);
  };
  useEffect(() => {
    if (reactorId && requestId) void fetchResult();
  }, []);
  useEffect(() => {
    if (job?.status !== 'pending' && job?.status !== 'running') return;
    const t = setTimeout(() => void fetchResult(), 1000);
    return () => clearTimeout(t);
  });
  return (
    <>
      <PageHeader title="Async results" />
      <form className="card inline" onSubmit={(e) => void fetchResult(e)}>
        <label>
          Reactor id
          <input value={reactorId} onChange={(e) => setReactorId(e.target.value)} required />
        </label>
        <label>
          Request id
          <input value={requestId} onChange={(e) => setRequestId(e.target.value)} required />
        </label>
        <button type="submit" disabled={busy}>
          Look up
        </button>
      </form>
      <ProblemView problem={problem} />
      {job ? (
        <section className="card" aria-live="polite">
          <p>
            Status <span className="badge">{job.status}</span> · started {formatDate(job.created_at)}
            {job.completed_at ? ` · completed ${formatDate(job.completed_at)}` : ''}
          </p>
          {job.status === 'pending' || job.status === 'running' ? <progress aria-label="Waiting for the result" /> : null}
          {job.result !== undefined ? <Json value={job.result} label="Result" /> : null}
          {job.error !== undefined ? <Json value={job.error} label="Error" /> : null}
        </section>
      ) : null}
    </>
  );
}
