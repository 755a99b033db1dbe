import { RefreshCw } from 'lucide-react';
import { Button } from './button';

/** A list's refresh/sync button (§2): spins and reads 'Menyinkronkan data...' during the 1 s delay. */
export function RefreshButton({
  syncing,
  onClick,
  label = 'Refresh',
}: {
  syncing: boolean;
  onClick: () => void;
  label?: string;
}) {
  return (
    <Button size="sm" variant="outline" onClick={onClick} disabled={syncing} aria-label={label}>
      <RefreshCw size={16} className={syncing ? 'animate-spin' : ''} />
      {syncing ? 'Menyinkronkan data...' : label}
    </Button>
  );
}
