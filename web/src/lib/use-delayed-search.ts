import { REFRESH_DELAY_MS } from '@wa/shared';
import { type FormEvent, useEffect, useRef, useState } from 'react';

export interface DelayedSearch {
  /** what the box holds */
  typed: string;
  setTyped(text: string): void;
  /** the 1 s between the submit and the search: the button spins and is disabled */
  searching: boolean;
  submit(e: FormEvent): void;
}

/**
 * A search box whose submit waits 1 s with a spinner before it searches (§2, §9), so a list does
 * not refetch on every keystroke and the user sees the search was taken. `apply` gets the trimmed
 * text.
 */
export function useDelayedSearch(initial: string, apply: (text: string) => void): DelayedSearch {
  const [typed, setTyped] = useState(initial);
  const [searching, setSearching] = useState(false);
  // a page left during the wait must not change the next page's query
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSearching(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      apply(typed.trim());
      setSearching(false);
    }, REFRESH_DELAY_MS);
  };
  return { typed, setTyped, searching, submit };
}

/** The query with `key` set to `value` (removed when empty), back on page 1 when `firstPage`. */
export function withParam(params: URLSearchParams, key: string, value: string, firstPage: boolean): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value) next.set(key, value);
  else next.delete(key);
  if (firstPage) next.set('page', '1');
  return next;
}

/**
 * The query as the address bar has it now. A screen's `useSearchParams()` is the query of its last
 * render, and the router draws a navigation as a transition, later when the machine is busy: two
 * filter changes in a row built on it would lose the first. Build the next query on this instead.
 */
export function latestParams(): URLSearchParams {
  return new URLSearchParams(window.location.search);
}
