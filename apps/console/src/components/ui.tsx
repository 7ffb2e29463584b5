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

/** A loaded list (one `<li>` per item, keyed by its id), or `empty` when it has no items. */
export function LoadedList<T extends { id: string }>({
  load,
  className,
  itemClassName,
  empty,
  item,
}: {
  load: Load<T[]>;
  className: string;
  itemClassName?: string;
  empty: ReactNode;
  item: (item: T) => ReactNode;
}) {
  return (
    <Loaded load={load}>
      {(items) =>
        items.length ? (
          <ul className={className}>
            {items.map((i) => (
              <li key={i.id} className={itemClassName}>
                {item(i)}
              </li>
            ))}
          </ul>
        ) : (
          <Empty>{empty}</Empty>
        )
      }
    </Loaded>
  );
}

/** The end of an editing form: the save's problem, the submit button (only for a session that may write), and "Saved.". */
export function SaveControls({
  problem,
  busy,
  writable,
  saved,
  label,
}: {
  problem: Problem | null;
  busy: boolean;
  writable: boolean;
  saved: boolean;
  label: string;
}) {
  return (
    <>
      <ProblemView problem={problem} />
      {writable ? (
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : label}
        </button>
      ) : null}
      {saved ? <span role="status"> Saved.</span> : null}
    </>
  );
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

/**
 * A labelled control with its own errors under it; `children` gets the attributes that tie the control to them, so the
 * errors' id is written once.
 */
export function FieldWithErrors({
  label,
  errorsId,
  errors,
  children,
}: {
  label: ReactNode;
  errorsId: string;
  errors: string[];
  children: (described: ReturnType<typeof describedBy>) => ReactNode;
}) {
  return (
    <>
      <label>
        {label}
        {children(describedBy(errorsId, errors))}
      </label>
      <FieldErrors id={errorsId} messages={errors} />
    </>
  );
}

/** aria-invalid and aria-describedby for a field with errors shown by FieldErrors under `id`. */
export function describedBy(id: string, messages: string[]): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return messages.length ? { 'aria-invalid': true, 'aria-describedby': id } : {};
}
