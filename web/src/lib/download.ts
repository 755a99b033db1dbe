import { csvCell } from '@wa/shared';

/** Saves text as a file through a temporary object URL. */
export function saveFile(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Rows as formula-safe CSV with a header of `columns`. */
export function toCsv(rows: Record<string, unknown>[], columns: readonly string[]): string {
  return `${[columns.join(','), ...rows.map((r) => columns.map((c) => csvCell(r[c])).join(','))].join('\n')}\n`;
}

/** Starts a server-streamed download (the browser writes it to disk; the page holds nothing). */
export function streamDownload(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
