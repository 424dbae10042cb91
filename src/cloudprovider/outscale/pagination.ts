/**
 * OAPI pagination: a Read call takes `NextPageToken` + `ResultsPerPage` and answers a `NextPageToken` while
 * more pages remain. `readAllPages` follows the tokens and concatenates; any failing page fails the whole read
 * (a partial list must never pass for a complete one — the GC would delete the missing nodes), and so does a
 * page without its list field: `{}` or an empty body is a broken answer, not an empty page.
 */
import { OutscaleResponseError } from './errors.js';

export class PaginationLoopError extends Error {
  constructor(action: string, pages: number) {
    super(`reading ${action}: still paging after ${pages} pages; refusing to treat a partial list as complete`);
    this.name = 'PaginationLoopError';
  }
}

export interface PageRequest {
  NextPageToken?: string;
  ResultsPerPage?: number;
}

type ElementOf<T> = T extends readonly (infer E)[] ? E : never;

export async function readAllPages<Req extends PageRequest, Res extends { NextPageToken?: string }, K extends keyof Res & string>(
  action: string,
  request: Req,
  readPage: (request: Req) => Promise<Res>,
  field: K,
  maxPages = 10_000,
): Promise<ElementOf<Res[K]>[]> {
  const all: ElementOf<Res[K]>[] = [];
  let token: string | undefined = request.NextPageToken;
  for (let page = 0; page < maxPages; page += 1) {
    const response = await readPage({ ...request, ...(token ? { NextPageToken: token } : {}) });
    const items: unknown = response[field];
    if (!Array.isArray(items)) throw new OutscaleResponseError(action, 200, `page ${page + 1} has no ${field} list`);
    all.push(...(items as ElementOf<Res[K]>[]));
    token = response.NextPageToken;
    if (!token) return all;
  }
  throw new PaginationLoopError(action, maxPages);
}
