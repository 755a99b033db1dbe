import type { Answer, CAMPAIGNS, CampaignDto, CampaignReport, CampaignTemplateDto } from '@wa/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiCallError, errorText } from '../../api/client';
import { usePoll } from '../../lib/use-poll';
import { campaignsApi } from './api';
import { CAMPAIGN_POLL_MS } from './campaign-ui';

/** `next`, or `old` when it holds the same (answers are plain JSON). */
function same<T>(old: T | null, next: T): T {
  return old !== null && JSON.stringify(old) === JSON.stringify(next) ? old : next;
}

export interface CampaignState {
  campaign: CampaignDto | null;
  report: CampaignReport | null;
  variants: CampaignTemplateDto[] | null;
  topups: Answer<typeof CAMPAIGNS.topups> | null;
  /** the campaign does not exist, or is another client's (the API answers both with 404) */
  notFound: boolean;
  error: string | null;
  /** asks for everything again (after a change, and every CAMPAIGN_POLL_MS) */
  reload(): Promise<void>;
  /** takes the campaign a change answered with, without waiting for the next poll */
  setCampaign(c: CampaignDto): void;
}

/**
 * A campaign and its figures (issue 22): the campaign, its report, its variants and its top-ups,
 * asked together on load, after each change and every 5 s while the tab is visible, so the page
 * follows a campaign while it sends (there is no live event of campaigns on the socket).
 */
export function useCampaign(id: number): CampaignState {
  const [campaign, setCampaign] = useState<CampaignDto | null>(null);
  const [report, setReport] = useState<CampaignReport | null>(null);
  const [variants, setVariants] = useState<CampaignTemplateDto[] | null>(null);
  const [topups, setTopups] = useState<Answer<typeof CAMPAIGNS.topups> | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // one round at a time, so a slow answer is never overtaken by an older one; a reload asked for
  // meanwhile (after a change) runs once that round is over
  const asking = useRef(false);
  const again = useRef(false);
  const current = useRef(id);
  current.current = id;

  const reload = useCallback(async () => {
    if (asking.current) {
      again.current = true;
      return;
    }
    asking.current = true;
    do {
      again.current = false;
      try {
        const [c, r, v, t] = await Promise.all([
          campaignsApi.get(id),
          campaignsApi.report(id),
          campaignsApi.variants(id),
          campaignsApi.topups(id),
        ]);
        if (current.current !== id) break;
        // an answer like the last keeps the last: the chart and the forms redraw only on a change
        setCampaign((old) => same(old, c));
        setReport((old) => same(old, r));
        setVariants((old) => same(old, v));
        setTopups((old) => same(old, t));
        setNotFound(false);
        setError(null);
      } catch (err) {
        if (current.current !== id) break;
        if (err instanceof ApiCallError && err.status === 404) setNotFound(true);
        else setError(errorText(err, 'Error fetching the campaign'));
      }
    } while (again.current);
    asking.current = false;
  }, [id]);

  useEffect(() => {
    setCampaign(null);
    setNotFound(false);
    void reload();
  }, [reload]);
  usePoll(() => void reload(), CAMPAIGN_POLL_MS, !notFound);

  return { campaign, report, variants, topups, notFound, error, reload, setCampaign };
}
