import type { ReactNode } from 'react';
import type { Page } from '../lib/api';
import { useCan } from '../lib/session';
import type { Load } from '../lib/use-load';
import { Empty, Loaded, PageHeader } from './ui';

/** The header of a list page, with its "New …" link when the session may create one. */
export function ListHeader({ title, create }: { title: string; create: { permission: string; href: string; label: string } }) {
  const can = useCan();
  return (
    <PageHeader title={title}>
      {can(create.permission) ? (
        <a className="button primary" href={create.href}>
          {create.label}
        </a>
      ) : null}
    </PageHeader>
  );
}

/** A loaded list shown as cards (one per item, keyed by its id), or `empty` when it has no items. */
export function CardList<T extends { id: string }>({ load, empty, card }: { load: Load<Page<T>>; empty: ReactNode; card: (item: T) => ReactNode }) {
  return (
    <Loaded load={load}>
      {(res) =>
        res.data.length ? (
          <ul className="list">
            {res.data.map((item) => (
              <li key={item.id} className="card">
                {card(item)}
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

/**
 * The header of a resource's page: its title, the link back to the list, what `children` add, and Delete when
 * `onDelete` is given (the page passes it only when the session may delete).
 */
export function DetailHeader({
  title,
  back,
  onDelete,
  busy,
  children,
}: {
  title: string;
  back: { href: string; label: string };
  onDelete?: () => Promise<void>;
  busy?: boolean;
  children?: ReactNode;
}) {
  return (
    <PageHeader title={title}>
      <a className="button" href={back.href}>
        {back.label}
      </a>
      {children}
      {onDelete ? (
        <button className="danger" onClick={() => void onDelete()} disabled={busy}>
          Delete
        </button>
      ) : null}
    </PageHeader>
  );
}
