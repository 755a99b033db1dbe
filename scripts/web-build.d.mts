export function isWebStale(): boolean;
export function buildWebIfStale(opts?: { quiet?: boolean }): boolean;
