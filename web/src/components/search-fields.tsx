import { Loader2, Search } from 'lucide-react';
import type { DelayedSearch } from '../lib/use-delayed-search';
import { Button } from './button';
import { inputClass } from './form-field';

/**
 * The search box and its 'Cari' button, for a form whose submit is `search.submit`; the button
 * spins during the 1 s before the search. `label` is the placeholder and the accessible name.
 */
export function SearchFields({
  search,
  label,
  className,
}: {
  search: DelayedSearch;
  label: string;
  className: string;
}) {
  return (
    <>
      <div className={`relative ${className}`}>
        <Search size={18} className="absolute top-1/2 left-3 -translate-y-1/2 text-gray-400" />
        <input
          name="s"
          value={search.typed}
          onChange={(e) => search.setTyped(e.target.value)}
          placeholder={label}
          aria-label={label}
          className={`${inputClass} pl-10`}
        />
      </div>
      <Button type="submit" size="sm" variant="outline" disabled={search.searching}>
        {search.searching ? <Loader2 size={16} className="animate-spin" /> : <Search size={16} />} Cari
      </Button>
    </>
  );
}
