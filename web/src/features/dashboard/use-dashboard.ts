import { ALL_USERS, type LiveEvent, type LiveMessage, type Role, type UserDto } from '@wa/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../api/client';
import { useLiveRefresh } from '../../lib/use-live-refresh';
import { type Analytics, type CachedAnalytics, readAnalytics, writeAnalytics } from './analytics-cache';
import { dashboardApi } from './api';

/** Live events after which a figure may have moved; a burst of them costs one refresh. */
const MOVING_EVENTS: ReadonlySet<LiveEvent> = new Set([
  'count_success',
  'count_fail',
  // receipts move the income and the counts (issue 11)
  'count_synced',
  'connection.update',
  'authenticated',
  'suspended',
  'reset',
]);
const LIVE_REFRESH_MS = 3_000;

type Job = { [K in keyof Analytics]: [K, () => Promise<Analytics[K]>] }[keyof Analytics];

/** What each dashboard reads (§2 Dashboard): a member their own figures, admin and dev everyone's. */
function jobsFor(userId: number, role: Role): Job[] {
  if (role === 'member') {
    return [
      ['whatsappCount', () => dashboardApi.whatsappCount(userId)],
      ['messageLogCount', () => dashboardApi.messageLogCount(userId)],
      ['todayIncome', () => dashboardApi.todayIncome(userId)],
      ['balance', () => dashboardApi.balance(userId)],
      ['totalBonus', () => dashboardApi.totalBonus(userId)],
    ];
  }
  return [
    ['proxyCount', dashboardApi.proxyCount],
    ['phoneCount', dashboardApi.phoneCount],
    ['whatsappCount', dashboardApi.whatsappCountAll],
    ['usersActiveCount', dashboardApi.usersActive],
    ['todayCount', () => dashboardApi.todayCount(ALL_USERS)],
    ['totalCount', () => dashboardApi.totalCount(ALL_USERS)],
  ];
}

export interface Dashboard {
  /** the figures known so far: cached ones at once, then each as the API answers */
  values: CachedAnalytics;
  /** the banner text (member dashboard) */
  info: string | null;
  /** the messages of the calls that failed in the last refresh */
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

  const refresh = useCallback(async () => {
    const failed = new Set<string>();
    const note = (err: unknown) => failed.add(errorText(err, 'Internal server error'));
    await Promise.all(
      jobsFor(userId, role).map(async ([key, fetch]) => {
        try {
          const value = await fetch();
          cache.current = { ...cache.current, [key]: value };
          writeAnalytics(userId, cache.current);
          setValues(cache.current);
        } catch (err) {
          note(err);
        }
      }),
    );
    setErrors([...failed]);
  }, [userId, role]);

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
