import { useState } from 'react';
import { api, query, type Page } from './api';
import { useLoad, type Load } from './use-load';

/** A list page's state: the page shown (from 1) and what the API answered for it; PagedTable takes all three. */
export interface PagedLoad<T> {
  load: Load<Page<T>>;
  page: number;
  setPage: (page: number) => void;
}

/** GET `path` with the query `params(page)` (its filters, size and page), again whenever the page or `deps` change. */
export function usePagedLoad<T>(path: string, params: (page: number) => Record<string, string | number | undefined>, deps: unknown[] = []): PagedLoad<T> {
  const [page, setPage] = useState(1);
  const [load] = useLoad(() => api<Page<T>>('GET', `${path}${query(params(page))}`), [page, ...deps]);
  return { load, page, setPage };
}
