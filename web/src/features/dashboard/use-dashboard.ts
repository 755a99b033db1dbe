import { ALL_USERS, type LiveMessage, type UserDto } from '@wa/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../api/client';
import { useLiveRefresh } from '../../lib/use-live-refresh';
import { type CachedAnalytics, readAnalytics, writeAnalytics } from './analytics-cache';
import { dashboardApi } from './api';
import { LIVE_REFRESH_MS, MOVING_EVENTS } from './refetch-rules';

export interface Dashboard {
  /** the figures known so far: cached ones at once, then the API's */
  values: CachedAnalytics;
  /** the banner text (member dashboard) */
  info: string | null;
  /** the message of the last refresh when it failed */
  errors: string[];
  /** hand it the page's live messages: account events refresh the figures a few seconds later */
  onLive(message: LiveMessage): void;
}

/**
 * The dashboard's figures: shown from the 'analytics' cookie straight away, refreshed from the API
 * on open and again after live account events (the page passes them to `onLive`, so its charts
 * share the one socket), each fresh figure written back to the cookie.
 */
export function useDashboard(user: UserDto): Dashboard {
  const { id: userId, role } = user;
  const [values, setValues] = useState<CachedAnalytics>(() => readAnalytics(userId));
  const [info, setInfo] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const cache = useRef(values);
  const member = role === 'member';

  // one call answers every figure (issue 23): a member's own, or everybody's for admin and dev
  const refresh = useCallback(async () => {
    try {
      const { scope: _scope, ...figures } = await dashboardApi.counters(member ? userId : ALL_USERS);
      cache.current = { ...cache.current, ...figures };
      writeAnalytics(userId, cache.current);
      setValues(cache.current);
      setErrors([]);
    } catch (err) {
      setErrors([errorText(err, 'Internal server error')]);
    }
  }, [userId, member]);

  useEffect(() => {
    cache.current = readAnalytics(userId);
    setValues(cache.current);
    void refresh();
  }, [userId, refresh]);

  useEffect(() => {
    if (!member) return;
    let live = true;
    dashboardApi.info().then(
      (text) => live && setInfo(text),
      () => live && setInfo(null),
    );
    return () => {
      live = false;
    };
  }, [member]);

  // live updates: one refresh a few seconds after account events, however many arrive meanwhile
  const onLive = useLiveRefresh(MOVING_EVENTS, LIVE_REFRESH_MS, () => void refresh());

  return { values, info, errors, onLive };
}
