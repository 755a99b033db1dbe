/** What one target table needs from the importer. Identifiers are constants, never user input. */
export interface BulkTarget {
  table: 'phone_numbers' | 'proxies';
  /** the unique column that decides duplicates */
  key: 'number' | 'value';
  /** the columns read from the file and inserted, key first */
  columns: readonly string[];
  /** what a row is, in messages: 'phone number', 'proxy' */
  label: string;
  /**
   * The part of the table the import adds to, where duplicates are judged: rows are inserted with
   * `column` = `value` and a key is a duplicate only of a row with the same (null: `column is null`,
   * phone_numbers' default pool, whose unique index is partial on it). Absent: the whole table.
   */
  scope?: { column: 'campaign_id'; value: number | null };
  /**
   * Skips a row whose key any row of the table holds with status 'optout' (CAMPAIGN_TARGET_TEXTS.optedOut):
   * a campaign's targets never take a number that asked not to be messaged (account safety).
   */
  suppressOptOuts?: boolean;
  /** turns a record's fields into the row to insert (key first), or the reason to skip it */
  normalize(fields: Record<string, string>): { values: string[] } | { reason: string };
  /** the API shape of a created row */
  toDto(id: number, values: string[]): Record<string, unknown>;
  /** the same as JSON, written by hand where a million rows make JSON.stringify of objects count */
  toJson?(id: number, values: string[]): string;
}
