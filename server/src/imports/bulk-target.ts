/** What one target table needs from the importer. Identifiers are constants, never user input. */
export interface BulkTarget {
  table: 'phone_numbers' | 'proxies';
  /** the unique column that decides duplicates */
  key: 'number' | 'value';
  /** the columns read from the file and inserted, key first */
  columns: readonly string[];
  /** what a row is, in messages: 'phone number', 'proxy' */
  label: string;
  /** turns a record's fields into the row to insert (key first), or the reason to skip it */
  normalize(fields: Record<string, string>): { values: string[] } | { reason: string };
  /** the API shape of a created row */
  toDto(id: number, values: string[]): Record<string, unknown>;
  /** the same as JSON, written by hand where a million rows make JSON.stringify of objects count */
  toJson?(id: number, values: string[]): string;
}
