import { TOKEN_KEY } from '../../../lib/session/session.store.ts';
import { getStored } from '../../../lib/storage.ts';
import { startVisitorList } from '../template-api.ts';
import { type ListSearch, readListSearch } from './list-search.ts';

/**
 * The list route's loader, on the document's first load (app/router.tsx): with no session stored the reader is a
 * visitor, whose list (the public tab) does not wait for the session, so it is asked for now, beside the page's
 * code, and the list query takes that answer. A stored session's lists wait for it, as before.
 */
export function startEarlyList(search: ListSearch) {
  if (getStored(TOKEN_KEY) !== null) return;
  startVisitorList(readListSearch(search, false));
}
