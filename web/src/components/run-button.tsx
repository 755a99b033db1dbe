import type { ReactNode } from 'react';
import { Button } from './button';

/**
 * Start/Stop of a running thing (a blast, a tool): red while it runs, disabled with 'Starting...'
 * or 'Stopping...' from the click until the answer or the live event (§4).
 */
export function RunButton({
  running,
  requesting,
  labels,
  icon,
  className,
  onClick,
}: {
  running: boolean;
  requesting: 'start' | 'stop' | null;
  labels: { start: string; stop: string };
  icon?: ReactNode;
  className?: string;
  onClick(action: 'start' | 'stop'): void;
}) {
  return (
    <Button
      size="sm"
      variant={running ? 'danger' : 'primary'}
      disabled={requesting !== null}
      onClick={() => onClick(running ? 'stop' : 'start')}
      className={className}
    >
      {icon}
      {requesting === 'start'
        ? 'Starting...'
        : requesting === 'stop'
          ? 'Stopping...'
          : running
            ? labels.stop
            : labels.start}
    </Button>
  );
}
