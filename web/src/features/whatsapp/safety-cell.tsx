import { SAFETY_TEXTS } from '@wa/shared';
import { CalendarClock } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/button';
import type { AccountActions } from './account-actions';
import { type AccountRow, isCapped, isPaused, localTime } from './live-rows';

/**
 * Account safety on a row: the day's messages against the daily cap, a pause after ban signals
 * with its reason (admin and dev may lift it), and a scheduled start.
 */
export function SafetyInfo({
  row,
  privileged,
  actions,
}: {
  row: AccountRow;
  privileged: boolean;
  actions: AccountActions;
}) {
  const capped = isCapped(row);
  return (
    <div className="flex flex-col gap-1 text-xs">
      <span
        data-testid="wa-cap"
        className={capped ? 'text-amber-600 dark:text-amber-400' : 'text-gray-500 dark:text-gray-400'}
      >
        Hari ini {row.sent_today}/{row.daily_cap}
        {capped && ` · ${SAFETY_TEXTS.dailyCap}`}
      </span>
      {row.status === 'sending' && row.scheduled_at && (
        <span className="text-gray-500 dark:text-gray-400">Terjadwal {localTime(row.scheduled_at)}</span>
      )}
      {isPaused(row) && row.paused_until && (
        <div data-testid="wa-paused" className="max-w-56 text-red-600 dark:text-red-400">
          <p>
            Dijeda sampai {localTime(row.paused_until)}
            {row.pause_reason ? `: ${row.pause_reason}` : ''}
          </p>
          {privileged && (
            <Button size="sm" variant="outline" className="mt-1" onClick={() => void actions.liftPause(row)}>
              Cabut jeda
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** 'Jadwalkan': the blast starts at a chosen time instead of now. */
export function ScheduleBlast({ row, actions }: { row: AccountRow; actions: AccountActions }) {
  const [open, setOpen] = useState(false);
  const [at, setAt] = useState('');
  if (!open) {
    return (
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)} aria-label="Jadwalkan blast">
        <CalendarClock size={16} /> Jadwalkan
      </Button>
    );
  }
  const submit = () => {
    const when = new Date(at);
    if (Number.isNaN(when.getTime())) return;
    setOpen(false);
    void actions.schedule(row, when);
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <input
        type="datetime-local"
        aria-label="Mulai blast pada"
        value={at}
        onChange={(e) => setAt(e.target.value)}
        className="rounded-lg border border-gray-300 bg-transparent px-2 py-1.5 text-sm dark:border-gray-700 dark:text-white/90"
      />
      <Button size="sm" disabled={!at} onClick={submit}>
        Jadwalkan
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
        Batal
      </Button>
    </div>
  );
}
