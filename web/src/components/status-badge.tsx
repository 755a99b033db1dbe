import { Badge } from './badge';

/** §4 status colours: active green, 'in use' yellow, anything else red. */
export function StatusBadge({ status }: { status: string }) {
  const tone = status === 'active' ? 'success' : status === 'in use' ? 'warning' : 'error';
  return <Badge tone={tone}>{status}</Badge>;
}
