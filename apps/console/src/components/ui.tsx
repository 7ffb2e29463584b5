import type { ReactNode } from 'react';
import { fieldErrorLines, type Problem } from '../lib/problem';
import type { Load } from '../lib/use-load';

/** A problem document as the operator reads it: title, detail and every field error. */
export function ProblemView({ problem }: { problem: Problem | null }) {
  if (!problem) return null;
  const lines = fieldErrorLines(problem);
  return (
    <div className="problem" role="alert">
      <strong>{problem.title}</strong>
      {problem.status ? <span className="muted"> ({problem.status})</span> : null}
      {problem.detail ? <p>{problem.detail}</p> : null}
      {lines.length ? (
        <ul>
          {lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** Loading, problem or content of a Load. */
export function Loaded<T>({ load, children }: { load: Load<T>; children: (data: T) => ReactNode }) {
  if (load.state === 'loading') return <Loading />;
  if (load.state === 'error') return <ProblemView problem={load.problem} />;
  return <>{children(load.data)}</>;
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      {children ? <div className="actions">{children}</div> : null}
    </header>
  );
}

export function Json({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

export function formatDate(s: string | undefined): string {
  return s ? new Date(s).toLocaleString() : '';
}

/** A field's own errors, under it (the field names them with `describedBy`); every error also shows in the form's ProblemView. */
export function FieldErrors({ id, messages }: { id: string; messages: string[] }) {
  if (!messages.length) return null;
  return (
    <ul id={id} className="field-errors">
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  );
}

/** aria-invalid and aria-describedby for a field with errors shown by FieldErrors under `id`. */
export function describedBy(id: string, messages: string[]): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return messages.length ? { 'aria-invalid': true, 'aria-describedby': id } : {};
}
