import { OPS } from '@coffer/contracts';
import { rowController } from '../http/row-routes';

/**
 * The v2 token lists of the mirrored API (what `@basis-theory/node-sdk` calls for `tokens.listV2` and `searchV2`):
 * cursor pages only, `{data, pagination: {page_size, next?}}`. Pass `next` back as `start` for the following page.
 * The list filters: `type`, `container` (trailing `*` = prefix), `fingerprint`, `metadata` (a JSON object); `size`,
 * `start`. The search body `{query?, size?, start?}`: the search language of POST /tokens/search; no query = every
 * searchable token.
 */
export const TokensV2Controller = rowController('TokensV2Controller', {
  tags: ['tokens'],
  routes: {
    list: OPS.token.tokens.listV2,
    search: OPS.token.tokens.searchV2,
  },
});
