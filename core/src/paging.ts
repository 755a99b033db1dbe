import { PAGE_SIZE } from '@wa/shared';

/** Pages of `size` for `total` rows: at least one page, so "Page 1 of 1" is never "of 0". */
export function pageMeta(page: number, total: number, size = PAGE_SIZE) {
  return { page, total, pageSize: size, totalPages: Math.max(1, Math.ceil(total / size)) };
}

/** LIMIT/OFFSET for a 1-based page. */
export function pageWindow(page: number, size = PAGE_SIZE) {
  return { limit: size, offset: (page - 1) * size };
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
