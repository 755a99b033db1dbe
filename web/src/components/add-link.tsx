import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from './button';

/** A list's 'Tambah' button: a link to its create page (§2). */
export function AddLink({ to, label = 'Tambah' }: { to: string; label?: string }) {
  return (
    <Link to={to}>
      <Button size="sm">
        <Plus size={16} /> {label}
      </Button>
    </Link>
  );
}
