import { streamDownload } from '../lib/download';
import { Button } from './button';

type Format = 'csv' | 'json';
const LABELS: Record<Format, string> = { csv: 'Export CSV', json: 'Export JSON' };

/**
 * Export CSV / Export JSON of a whole list, streamed by the server (§7 …/export); with nothing to
 * export the browser says `empty` instead.
 */
export function ExportButtons({
  total,
  empty,
  url,
  formats = ['csv', 'json'],
}: {
  total: number;
  empty: string;
  url(format: Format): string;
  formats?: Format[];
}) {
  return formats.map((format) => (
    <Button
      key={format}
      size="sm"
      variant="outline"
      onClick={() => (total === 0 ? window.alert(empty) : streamDownload(url(format)))}
    >
      {LABELS[format]}
    </Button>
  ));
}
