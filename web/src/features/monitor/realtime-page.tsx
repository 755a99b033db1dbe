import type { LiveMessage } from '@wa/shared';
import { Trash2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useLiveEvents } from '../../api/use-live-events';
import { Button } from '../../components/button';
import { LiveDot } from '../../components/live-dot';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { IdForm, Spinner } from './monitor-controls';
import { formatLineDate, lineOf, lineParts, type MonitorLine } from './realtime-line';

/** Lines kept on screen; older ones scroll away. */
const MAX_LINES = 500;
/**
 * A dev's socket is in the device owner's channel and in client-admin: an event of the dev's own
 * device arrives twice. The same message within this window is shown once.
 */
const DUPLICATE_WINDOW_MS = 250;

const TONES: Record<NonNullable<MonitorLine['tone']> | 'plain', string> = {
  yellow: 'text-yellow-400',
  green: 'text-green-400',
  plain: 'text-gray-200',
};

function Line({ line }: { line: MonitorLine }) {
  return (
    <li
      data-testid="monitor-line"
      data-event={line.event}
      data-tone={line.tone ?? 'plain'}
      className={`break-words ${TONES[line.tone ?? 'plain']}`}
    >
      <span className="text-gray-400">{formatLineDate(line.date)}</span>{' '}
      <span className="font-semibold">{line.event}</span>
      {lineParts(line).map((part) => ` ${part}`)}
    </li>
  );
}

/**
 * /monitor/realtime?id={clientid} (§2 Monitor, dev only): every live event of one device as one
 * line, connection.update in yellow and authenticated in green, newest at the bottom.
 */
export function MonitorRealtimePage() {
  const [params, setParams] = useSearchParams();
  const id = (params.get('id') ?? '').trim();
  const [lines, setLines] = useState<(MonitorLine & { key: number })[]>([]);
  const seq = useRef(0);
  const recent = useRef(new Map<string, number>());
  const list = useRef<HTMLOListElement>(null);

  const onMessage = useCallback(
    (message: LiveMessage) => {
      if (!id) return;
      const line = lineOf(message, id);
      if (!line) return;
      const now = Date.now();
      const raw = JSON.stringify(message);
      for (const [k, t] of recent.current) if (now - t > DUPLICATE_WINDOW_MS) recent.current.delete(k);
      if (recent.current.has(raw)) return;
      recent.current.set(raw, now);
      seq.current += 1;
      const key = seq.current;
      setLines((ls) => [...ls, { ...line, key }].slice(-MAX_LINES));
    },
    [id],
  );
  const { connected } = useLiveEvents(onMessage);

  // a new device starts a new log
  // biome-ignore lint/correctness/useExhaustiveDependencies: id is the trigger
  useEffect(() => {
    setLines([]);
  }, [id]);

  // follow the newest line
  // biome-ignore lint/correctness/useExhaustiveDependencies: lines is the trigger
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines]);

  const open = (v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set('id', v);
    else next.delete('id');
    setParams(next);
  };

  return (
    <>
      <PageBreadcrumb title="Monitor Realtime" />
      <Card>
        <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
          <IdForm label="Client ID" placeholder="id-1700000000000-1234" value={id} onSubmit={open} />
          <div className="flex items-center gap-3">
            <LiveDot connected={connected} />
            <Button variant="outline" size="sm" onClick={() => setLines([])} disabled={lines.length === 0}>
              <Trash2 size={14} />
              Bersihkan
            </Button>
          </div>
        </div>
        {!id ? (
          <p className="text-sm text-gray-500 dark:text-gray-400">
            Isi Client ID lalu tekan Buka, atau buka dari Client ID di daftar Whatsapp.
          </p>
        ) : !connected && lines.length === 0 ? (
          <Spinner label="Menyambungkan..." />
        ) : (
          <ol
            ref={list}
            data-testid="monitor-lines"
            aria-live="polite"
            className="max-h-[70vh] min-h-40 space-y-1 overflow-y-auto rounded-xl bg-gray-900 p-4 font-mono text-xs leading-5"
          >
            {lines.length === 0 ? (
              <li className="text-gray-400">Menunggu event {id}...</li>
            ) : (
              lines.map((l) => <Line key={l.key} line={l} />)
            )}
          </ol>
        )}
      </Card>
    </>
  );
}
