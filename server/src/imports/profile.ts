/**
 * IMPORT_PROFILE: a mark for each phase of an import, printed with the time since the import
 * began and the process's memory (where a bulk load's time and memory go). Silent when off.
 */
export function importProfiler(enabled: boolean): (what: string) => void {
  const t0 = Date.now();
  const mb = (n: number) => Math.round(n / 1048576);
  return (what) => {
    if (!enabled) return;
    const m = process.memoryUsage();
    console.error(
      `[import] ${what} at ${Date.now() - t0} ms (rss ${mb(m.rss)} MB, heap ${mb(m.heapUsed)}, external ${mb(m.external)}, buffers ${mb(m.arrayBuffers)})`,
    );
  };
}
