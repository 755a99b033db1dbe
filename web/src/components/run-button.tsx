import type { ReactNode } from 'react';
import { Button } from './button';

/**
 * Start/Stop of a running thing (a blast, a tool): red while it runs, disabled with 'Starting...'
 * or 'Stopping...' from the click until the answer or the live event (§4). `blocked` is why it
 * cannot start now (a blast's daily cap): the stopped button is disabled and says so; a running
 * thing can always be stopped.
 */
export function RunButton({
  running,
  requesting,
  labels,
  icon,
  className,
  blocked,
  onClick,
}: {
  running: boolean;
  requesting: 'start' | 'stop' | null;
  labels: { start: string; stop: string };
  icon?: ReactNode;
  className?: string;
  blocked?: string | null;
  onClick(action: 'start' | 'stop'): void;
}) {
  const refused = !running && requesting === null && blocked ? blocked : null;
  return (
    <Button
      size="sm"
      variant={running ? 'danger' : 'primary'}
      disabled={requesting !== null || refused !== null}
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
            : (refused ?? labels.start)}
    </Button>
  );
}
