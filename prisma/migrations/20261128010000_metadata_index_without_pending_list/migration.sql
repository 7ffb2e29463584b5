-- The metadata filter's GIN index without its pending list. With fastupdate (PostgreSQL's default), new entries
-- collect in an unsorted pending list of up to gin_pending_list_limit (4 MB) that every filtered list, search and
-- count scans in full until a vacuum merges it: at 1,000,000 tokens a filtered page cost PostgreSQL 5-7 ms instead
-- of 0.05 ms (EXPLAIN: ~400 buffers for 10 rows). Each create now updates the index itself (microseconds per row).
ALTER INDEX "tokens_metadata_search_idx" SET (fastupdate = off);
-- what the pending list holds already goes into the index now, not at the next vacuum
SELECT gin_clean_pending_list('"tokens_metadata_search_idx"'::regclass);
