import {
  fieldErrors,
  type GeneratorDto,
  isToolMessage,
  type LiveMessage,
  TOOL_EXPORT,
  TOOL_TEXTS,
  type ToolResultRow,
  type ValidatorDto,
} from '@wa/shared';
import type { z } from 'zod';
import { toCsv } from '../../lib/download';

export type ToolKind = 'generator' | 'validator';
export type ToolDto = GeneratorDto | ValidatorDto;

/** The running status of each tool, and the text the list shows while it runs (§4). */
export const TOOL_RUNNING = {
  generator: { status: 'generating', text: 'Generating...' },
  validator: { status: 'validating', text: 'Validating...' },
} as const;

/** A list row: the tool plus the transient flags of §4 "Transient row indicators". */
export type ToolRow<T extends ToolDto = ToolDto> = T & {
  /** Start/Stop sent, waiting for the answer */
  requesting: 'start' | 'stop' | null;
  deleting: boolean;
  downloading: boolean;
  waiting: boolean;
  /** seconds left of the wait, counted down once a second */
  waitTime: number;
  /** a check failed and is tried again: 'Fail, attempting (code)...' (§4) */
  attemptingCode: string | null;
  successUpdated: boolean;
  failUpdated: boolean;
};

export function toToolRow<T extends ToolDto>(dto: T): ToolRow<T> {
  return {
    ...dto,
    requesting: null,
    deleting: false,
    downloading: false,
    waiting: false,
    waitTime: 0,
    attemptingCode: null,
    successUpdated: false,
    failUpdated: false,
  };
}

/** The tool id an event names (`generatorId` or `validatorId`) when it is about a `kind` tool, else null. */
export function toolEventId(message: LiveMessage, kind: ToolKind): number | null {
  if (!isToolMessage(message)) return null;
  const p = message.payload;
  if (p.tool !== kind) return null;
  return p.tool === 'generator' ? p.generatorId : p.validatorId;
}

/** A change to a row of either tool. */
export type RowPatch = Partial<ToolRow<GeneratorDto> & ToolRow<ValidatorDto>>;

/**
 * What a live event (§4 Live events) changes on the row of the tool it names, or null when the
 * event does not concern a `kind` list (an account's event, or the other tool's). The row is
 * found with `toolEventId`.
 */
export function toolLivePatch(message: LiveMessage, kind: ToolKind): RowPatch | null {
  if (!isToolMessage(message) || message.payload.tool !== kind) return null;
  const idle = { status: 'idle', requesting: null, waiting: false, waitTime: 0, attemptingCode: null } as const;
  switch (message.event) {
    case 'generating':
    case 'validating':
      return {
        status: message.event,
        requesting: null,
        state: null,
        waiting: false,
        waitTime: 0,
        attemptingCode: null,
      };
    case 'attempting':
      return { waiting: false, waitTime: 0, attemptingCode: message.payload.code };
    case 'progressing': {
      const { progress, value } = message.payload;
      // a generator shows the number it checks; a validator its progress only
      const current = kind === 'generator' ? { current_number: value } : {};
      return { waiting: false, waitTime: 0, attemptingCode: null, progress, ...current };
    }
    case 'count_success': {
      const { value, progress } = message.payload;
      return { count_success: value, successUpdated: true, attemptingCode: null, progress };
    }
    case 'count_fail': {
      const { value, progress } = message.payload;
      return { count_fail: value, failUpdated: true, attemptingCode: null, progress };
    }
    case 'waiting':
      return { waiting: true, waitTime: Math.max(0, Math.round(message.payload.waitTime)), attemptingCode: null };
    case 'finished':
    case 'error_generate':
    case 'error_validate':
      // `state` is 'finished' or the error that ended the run
      return { ...idle, state: message.payload.state, progress: 100 };
    case 'stop':
      return { ...idle };
    default:
      return null;
  }
}

/** Whether the tool is running (generating or validating). */
export function isRunning(row: Pick<ToolDto, 'status'>): boolean {
  return row.status !== 'idle';
}

/**
 * The Status column (§2, §4 transient indicators in priority order): a retried check, the waiting
 * countdown, the running text; else the last state or idle.
 */
export function toolStatusText(
  row: Pick<ToolRow, 'status' | 'state' | 'waiting' | 'waitTime' | 'attemptingCode'>,
  kind: ToolKind,
): string {
  if (isRunning(row)) {
    if (row.attemptingCode !== null) return `Fail, attempting (${row.attemptingCode})...`;
    return row.waiting ? `Waiting (${row.waitTime}s)...` : TOOL_RUNNING[kind].text;
  }
  return row.state || 'idle';
}

/** Progress as a percent with 2 decimals (§9): `12.5` → `12.50%`. */
export function formatProgress(progress: number | null | undefined): string {
  const n = Number(progress ?? 0);
  return `${(Number.isFinite(n) ? Math.min(100, Math.max(0, n)) : 0).toFixed(2)}%`;
}

/** A file name cut in the middle so the extension stays readable: `very-long-na…me.csv`. */
export function shortFileName(name: string, max = 24): string {
  if (name.length <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 6 ? name.slice(dot) : '';
  const keep = Math.max(1, max - ext.length - 1);
  const head = Math.ceil(keep * 0.6);
  const stem = name.slice(0, name.length - ext.length);
  return `${stem.slice(0, head)}…${stem.slice(stem.length - (keep - head))}${ext}`;
}

export const STATUS_FILTERS = ['running', 'idle'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** The status filter (§2): Semua (empty) keeps all, running keeps generating/validating, idle the rest. */
export function matchesStatus(row: Pick<ToolDto, 'status'>, filter: string): boolean {
  if (filter === 'running') return isRunning(row);
  if (filter === 'idle') return !isRunning(row);
  return true;
}

/** The download of §7: the result rows as CSV, each with status 'active'; null when there are none. */
export function resultsCsv(list: ToolResultRow[]): string | null {
  if (list.length === 0) return null;
  return toCsv(
    list.map((r) => ({ number: r.number, name: r.name, status: 'active' })),
    TOOL_EXPORT.columns,
  );
}

/** The two §5 order messages, which show as soon as the fields contradict each other. */
const ORDER_TEXTS: readonly string[] = Object.values(TOOL_TEXTS);

/**
 * The form's messages per field from the shared schema. Before a submit only the §5 order
 * messages show, and only once the fields they compare are valid on their own (a placeholder
 * account lets the schema run); after a submit every message shows.
 */
export function toolFormErrors(
  schema: z.ZodType,
  values: Record<string, unknown>,
  submitted: boolean,
): Record<string, string> {
  const parsed = schema.safeParse(submitted ? values : { ...values, whatsapp_id: values.whatsapp_id || 1 });
  if (parsed.success) return {};
  if (submitted) {
    // a missing account stops zod before the interval and range rules; check those with a stand-in
    const rest = values.whatsapp_id ? parsed : schema.safeParse({ ...values, whatsapp_id: 1 });
    const out = rest.success ? {} : fieldErrors(rest.error);
    if (!values.whatsapp_id) out.whatsapp_id = 'Account is required.';
    return out;
  }
  const bad = new Set(
    parsed.error.issues.filter((i) => !ORDER_TEXTS.includes(i.message)).map((i) => String(i.path[0])),
  );
  const out: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? '_');
    if (!ORDER_TEXTS.includes(issue.message) || key in out) continue;
    const compared =
      issue.message === TOOL_TEXTS.startAfterEnd ? ['start_number', 'end_number'] : ['interval_min', 'interval_max'];
    if (compared.some((f) => bad.has(f))) continue;
    out[key] = issue.message;
  }
  return out;
}
