/**
 * Scaleway's list paging: `page` (from 1) and `per_page` (default 50, at most 100), the total in the
 * `X-Total-Count` header (bodies omit `total_count`) and a `Link` header with next/last pages.
 */
import { invalidArgument } from './api-error.js';

export interface Page<T> {
  items: T[];
  headers: Record<string, string>;
}

const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 100;

function positiveInt(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw invalidArgument(name, `${name} must be an integer between 1 and ${max}, got "${raw}"`);
  return n;
}

export function paginate<T>(all: T[], query: URLSearchParams, path: string): Page<T> {
  const page = positiveInt(query, 'page', 1, Number.MAX_SAFE_INTEGER);
  const perPage = positiveInt(query, 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE);
  const start = (page - 1) * perPage;
  const lastPage = Math.max(1, Math.ceil(all.length / perPage));
  const link = (p: number, rel: string): string => {
    // The API writes page and per_page first, then the caller's filters.
    const q = new URLSearchParams({ page: String(p), per_page: String(perPage) });
    for (const [k, v] of query) if (k !== 'page' && k !== 'per_page') q.append(k, v);
    return `<${path}?${q.toString()}>; rel="${rel}"`;
  };
  const links = [...(page < lastPage ? [link(page + 1, 'next')] : []), link(lastPage, 'last')];
  return {
    items: all.slice(start, start + perPage),
    headers: { 'X-Total-Count': String(all.length), Link: links.join(', ') },
  };
}
