import { useState } from 'react';
import { errorText } from '../api/client';

export interface RowDelete {
  /** the row's delete is on its way: the row reads 'Deleting...' */
  isDeleting(id: number): boolean;
  remove(id: number): Promise<void>;
  /** the last delete's refusal */
  error: string | null;
}

/**
 * A list's Delete (§4): the row reads 'Deleting...' until the server confirms, then goes by the id
 * the server returns (`onRemoved`); a refusal stays on the row and shows its message.
 */
export function useRowDelete(
  remove: (id: number) => Promise<{ id: number }>,
  onRemoved: (id: number) => void,
): RowDelete {
  const [deleting, setDeleting] = useState<ReadonlySet<number>>(new Set());
  const [error, setError] = useState<string | null>(null);
  return {
    isDeleting: (id) => deleting.has(id),
    error,
    async remove(id) {
      setError(null);
      setDeleting((d) => new Set(d).add(id));
      try {
        const res = await remove(id);
        onRemoved(res.id);
      } catch (err) {
        setError(errorText(err));
      } finally {
        setDeleting((d) => {
          const next = new Set(d);
          next.delete(id);
          return next;
        });
      }
    },
  };
}
