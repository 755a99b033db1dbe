import { buildWebIfStale } from '../../scripts/web-build.mjs';

/** Vitest globalSetup of the e2e project: build the dashboard once when it is missing or stale. */
export default function setup() {
  buildWebIfStale({ quiet: true });
}
