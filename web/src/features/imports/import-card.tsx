import type { ImportSkippedRow } from '@wa/shared';
import { Upload } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { errorText } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card } from '../../components/page-breadcrumb';
import { saveFile, streamDownload } from '../../lib/download';

export interface ImportCardProps {
  /** sends the form (multipart field `file`) to the import's route (PHONE_NUMBERS.import, PROXIES.import, …) */
  upload(form: FormData): Promise<ImportAnswer>;
  /** the address of the full skipped list (CSV) an import answered as `skipped_id` */
  skippedUrl(skippedId: string): string;
  /** told after an import that registered rows (a list beside the card refetches) */
  onImported?(): void;
  /** the word in the texts: 'nomor' or 'proxy' */
  noun: string;
  /** the skipped rows' key column: number or value */
  keyColumn: 'number' | 'value';
  /** the columns of the skipped rows' JSON download */
  csvColumns: readonly string[];
  /** the JSON download's name (the CSV is named by the server) */
  skippedFiles: { csv: string; json: string };
  fallback: string;
}

const PREVIEW = 5;

/** What an import answers (§3 Import result); `skipped` holds the first 1,000 of `skipped_total`. */
export interface ImportAnswer {
  total: number;
  skipped: ImportSkippedRow[];
  skipped_total: number;
  skipped_id: string | null;
}

/**
 * The upload card of §2 (phone numbers, proxies, a campaign's targets): .csv or .json only, the count registered, the
 * first five skipped rows with their line, reason and the total, and the skipped list: the full
 * list as CSV from the server (kept there an hour), and as JSON when the answer holds all of it.
 */
export function ImportCard({
  upload,
  skippedUrl,
  onImported,
  noun,
  keyColumn,
  csvColumns,
  skippedFiles,
  fallback,
}: ImportCardProps) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportAnswer | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setResult(null);
    if (!file) {
      setError('File is required.');
      return;
    }
    if (!/\.(csv|json)$/i.test(file.name)) {
      setError('Only .csv and .json files are accepted.');
      return;
    }
    setBusy(true);
    try {
      const form = new FormData();
      form.append('file', file);
      const res = await upload(form);
      setResult({
        total: res.total,
        skipped: res.skipped,
        skipped_total: res.skipped_total,
        skipped_id: res.skipped_id,
      });
      setFile(null);
      if (input.current) input.current.value = '';
      if (res.total > 0) onImported?.();
    } catch (err) {
      setError(errorText(err, fallback));
    } finally {
      setBusy(false);
    }
  };

  const keyOf = (s: ImportSkippedRow) =>
    keyColumn === 'value' ? ((s as ImportSkippedRow & { value?: string }).value ?? s.number) : s.number;
  const skippedRows: Record<string, unknown>[] = (result?.skipped ?? []).map((s) => ({ ...s, [keyColumn]: keyOf(s) }));
  const all = result !== null && result.skipped.length === result.skipped_total;
  const jsonColumns = ['line', ...csvColumns, 'id', 'reason'];

  return (
    <Card>
      <h3 className="mb-4 text-lg font-semibold text-gray-800 dark:text-white/90">Upload File</h3>
      <form onSubmit={submit} className="space-y-4" data-testid="import-form">
        <input
          ref={input}
          type="file"
          name="file"
          accept=".csv,.json"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          className="block w-full cursor-pointer rounded-lg border border-gray-300 text-sm text-gray-600 file:mr-4 file:cursor-pointer file:border-0 file:bg-gray-100 file:px-4 file:py-3 file:text-sm file:font-medium file:text-gray-700 dark:border-gray-700 dark:text-gray-400 dark:file:bg-white/5 dark:file:text-gray-300"
        />
        <p className="text-xs text-gray-500 dark:text-gray-400">Format .csv atau .json</p>
        <Button type="submit" disabled={busy}>
          <Upload size={16} /> {busy ? 'Uploading...' : 'Upload File'}
        </Button>
      </form>
      <div className="mt-4 space-y-4">
        {error && <Alert tone="error">{error}</Alert>}
        {result && (
          <Alert tone="success">
            Total {result.total} {noun}, berhasil didaftarkan.
          </Alert>
        )}
        {result && result.skipped_total > 0 && (
          <div data-testid="skipped">
            <h4 className="mb-2 text-sm font-semibold text-gray-800 dark:text-white/90">
              Daftar {noun} yang dilewatkan
            </h4>
            <ul className="space-y-1 text-sm text-gray-700 dark:text-gray-300">
              {skippedRows.slice(0, PREVIEW).map((s, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a fixed preview list
                <li key={i} data-testid="skipped-row">
                  <span className="text-gray-500">Baris {String(s.line)}: </span>
                  <span className="font-medium">{String(s[keyColumn] ?? '') || '(kosong)'}</span>
                  {s.name ? ` — ${String(s.name)}` : ''} <span className="text-gray-500">({String(s.reason)})</span>
                </li>
              ))}
            </ul>
            {result.skipped_total > PREVIEW && (
              <p className="mt-2 text-sm text-gray-500 dark:text-gray-400">
                ...total {result.skipped_total} {noun}. Download file untuk selengkapnya.
              </p>
            )}
            <div className="mt-3 flex flex-wrap gap-2">
              {result.skipped_id && (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => result.skipped_id && streamDownload(skippedUrl(result.skipped_id))}
                >
                  Download CSV
                </Button>
              )}
              {all && (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() =>
                    saveFile(
                      skippedFiles.json,
                      JSON.stringify(
                        skippedRows.map((r) => Object.fromEntries(jsonColumns.map((c) => [c, r[c]]))),
                        null,
                        2,
                      ),
                      'application/json',
                    )
                  }
                >
                  Download JSON
                </Button>
              )}
            </div>
          </div>
        )}
      </div>
    </Card>
  );
}
