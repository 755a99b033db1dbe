import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorText } from '../api/client';

/**
 * The record an edit page opens, by ?id= (§2): 'Error: <missing>' without an id, 'Error: <the
 * server's message or `fallback`>' when it cannot be read. The page edits it in place; `load` is
 * module-level, so it stays the same.
 */
export function useRecord<T>(load: (id: number) => Promise<T>, texts: { missing: string; fallback: string }) {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  // as read, and as edited so far
  const [loaded, setLoaded] = useState<T | null>(null);
  const [record, setRecord] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { missing, fallback } = texts;
  useEffect(() => {
    if (!id) {
      setError(`Error: ${missing}`);
      return;
    }
    load(id)
      .then((r) => {
        setLoaded(r);
        setRecord(r);
      })
      .catch((err) => setError(`Error: ${errorText(err, fallback)}`));
  }, [id, load, missing, fallback]);
  return { loaded, record, setRecord, error };
}
