/**
 * OAPI pagination: a Read call takes `NextPageToken` + `ResultsPerPage` and answers a `NextPageToken` while
 * more pages remain. `readAllPages` follows the tokens and concatenates; any failing page fails the whole read
 * (a partial list must never pass for a complete one — the GC would delete the missing nodes).
 */

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

export async function readAllPages<Req extends PageRequest, Res extends { NextPageToken?: string }, Item>(
  action: string,
  request: Req,
  readPage: (request: Req) => Promise<Res>,
  items: (response: Res) => Item[] | undefined,
  maxPages = 10_000,
): Promise<Item[]> {
  const all: Item[] = [];
  let token: string | undefined = request.NextPageToken;
  for (let page = 0; page < maxPages; page += 1) {
    const response = await readPage({ ...request, ...(token ? { NextPageToken: token } : {}) });
    all.push(...(items(response) ?? []));
    token = response.NextPageToken;
    if (!token) return all;
  }
  throw new PaginationLoopError(action, maxPages);
}
