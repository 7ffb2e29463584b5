import { useRef, useState } from 'react';
import { apiUrl, request, type ApiItem, type ApiPath, type Page } from './api';
import { useLoad, type Load } from './use-load';

/** A list page's state: the page shown (from 1) and what the API answered for it; PagedTable takes all three. */
export interface PagedLoad<T> {
  load: Load<Page<T>>;
  page: number;
  setPage: (page: number) => void;
}

/** The documented paths without parameters whose GET answers a page of items (`{ pagination, data }`). */
export type ListPath = { [P in ApiPath<'GET'>]: [ApiItem<P>] extends [never] ? never : P }[ApiPath<'GET'>];

/**
 * GET `path` with the query `params(page)` (its filters, size and page), again whenever the page or `deps` change;
 * the items are typed as the API reference describes that list.
 */
export function usePagedLoad<P extends ListPath>(
  path: P,
  params: (page: number) => Record<string, string | number | undefined>,
  deps: unknown[] = [],
): PagedLoad<ApiItem<P>> {
  const [page, setPage] = useState(1);
  const [load] = useLoad(() => request<Page<ApiItem<P>>>('GET', apiUrl(path, undefined, params(page))), [page, ...deps]);
  return { load, page, setPage };
}

/**
 * usePagedLoad for a list paged by cursor (`/v2/tokens`): page n asks with the `next` page n - 1 answered (each one
 * remembered, so Previous goes back without a cursor of its own); give PagedTable `pager.last` = no `next`.
 */
export function useCursorPagedLoad<P extends ListPath>(
  path: P,
  params: () => Record<string, string | number | undefined>,
  deps: unknown[] = [],
): PagedLoad<ApiItem<P>> {
  const [page, setPage] = useState(1);
  /** the `start` of each page: none for the first */
  const starts = useRef<Array<string | undefined>>([]);
  const [load] = useLoad(async () => {
    const res = await request<Page<ApiItem<P>>>('GET', apiUrl(path, undefined, { ...params(), start: starts.current[page] }));
    starts.current[page + 1] = res.pagination.next;
    return res;
  }, [page, ...deps]);
  return { load, page, setPage };
}
