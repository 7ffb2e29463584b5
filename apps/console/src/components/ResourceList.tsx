import type { ComponentType, ReactNode } from 'react';
import { apiUrl, request, type ApiItem, type Page } from '../lib/api';
import { useCan } from '../lib/session';
import { useLoad } from '../lib/use-load';
import type { ListPath } from '../lib/use-paged-load';
import { LoadedList, PageHeader } from './ui';

/** A list page's "New …" link, shown only to a session holding `permission`. */
export interface CreateLink {
  permission: string;
  href: string;
  label: string;
}

/**
 * A resource's page by its route: `#/<page>` lists them, `#/<page>/new` creates one, `#/<page>/<id>` shows that one
 * (`create` and `detail` may be one editor: React then keeps it when a created resource's id replaces "new").
 */
export function ResourceRoute({
  id,
  list: List,
  create: Create,
  detail: Detail,
}: {
  id?: string;
  list: ComponentType;
  create: ComponentType;
  detail: ComponentType<{ id: string }>;
}) {
  if (id === 'new') return <Create />;
  if (id) return <Detail id={id} />;
  return <List />;
}

/** The header of a list page, with its "New …" link when the session may create one. */
export function ListHeader({ title, create }: { title: string; create: CreateLink }) {
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

/** The API's largest page: a card list is not paged. */
const CARD_LIST_SIZE = 100;

/** The documented lists whose items have an id (a card is keyed by it). */
type IdListPath = { [P in ListPath]: ApiItem<P> extends { id: string } ? P : never }[ListPath];

/**
 * A list page: its header (with the "New …" link) and the first page of `GET path` as cards, one per item, or `empty`
 * when there are none.
 */
export function ResourceList<P extends IdListPath>({
  path,
  title,
  create,
  empty,
  card,
}: {
  path: P;
  title: string;
  create: CreateLink;
  empty: ReactNode;
  card: (item: ApiItem<P>) => ReactNode;
}) {
  // IdListPath guarantees the id, but TypeScript does not see it through ApiItem of a generic path
  const [load] = useLoad(
    () => request<Page<ApiItem<P> & { id: string }>>('GET', apiUrl(path, undefined, { size: CARD_LIST_SIZE })).then((page) => page.data),
    [path],
  );
  return (
    <>
      <ListHeader title={title} create={create} />
      <LoadedList load={load} className="list" itemClassName="card" empty={empty} item={card} />
    </>
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
