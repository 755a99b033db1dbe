import { exportQuery } from './common';
import { phoneImportResult, phoneListQuery, phoneNumberPage, skippedListId } from './phone-numbers';

/**
 * A campaign's targets (issue 22): phone numbers of its own, read, imported and exported as the
 * default pool's are (§7 Phone numbers), so the screens and scripts of the pool work on them as
 * they are. A number is in a campaign's list once, whatever the pool or other campaigns hold.
 */

/** GET /admin/campaigns/{id}/targets: the page, a search (number prefix or name) and the status filter. */
export const campaignTargetsQuery = phoneListQuery;

/** GET /admin/campaigns/{id}/targets: a page of the campaign's targets, newest first. */
export const campaignTargetPage = phoneNumberPage;

/** POST /admin/campaigns/{id}/targets/import: as the pool's import answers (§3 Import result). */
export const campaignTargetImportResult = phoneImportResult;

/** GET /admin/campaigns/{id}/targets/export: CSV unless `format=json`. */
export const campaignTargetsExportQuery = exportQuery('csv');

/** GET …/targets/import/skipped/{importId}: the one-off id an import answered as `skipped_id`. */
export const campaignSkippedListId = skippedListId;

/** The export's file names and columns (the pool's columns: a campaign's export imports anywhere). */
export const CAMPAIGN_TARGET_EXPORT = {
  file: (campaignId: number, format: 'csv' | 'json') => `campaign_${campaignId}_targets.${format}`,
  skipped: (campaignId: number) => `campaign_${campaignId}_targets_skipped.csv`,
  columns: ['number', 'name', 'status'],
} as const;

export const CAMPAIGN_TARGET_TEXTS = {
  /** an import into a finished campaign: it sends nothing any more */
  finished: 'A finished campaign takes no more targets.',
  /** the skip reason of a number that has opted out anywhere (account safety): never a campaign's target */
  optedOut: 'Opted out',
} as const;
