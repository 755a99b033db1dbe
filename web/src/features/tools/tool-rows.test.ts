import { type GeneratorDto, generatorBody, type LiveMessage, TOOL_TEXTS, validatorFields } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import {
  formatProgress,
  matchesStatus,
  resultsCsv,
  shortFileName,
  toolEventId,
  toolFormErrors,
  toolLivePatch,
  toolStatusText,
  toToolRow,
} from './tool-rows';

const gen = { deviceId: 'd', tool: 'generator', generatorId: 7 } as const;
const val = { deviceId: 'd', tool: 'validator', validatorId: 2 } as const;
const account: LiveMessage = { event: 'count_success', payload: { deviceId: 'd', value: 3, income: 0 } };

const generator: GeneratorDto = {
  id: 7,
  user_id: 1,
  whatsapp_id: 3,
  b_insert: 0,
  interval_min: 1,
  interval_max: 2,
  count_success: 0,
  count_fail: 0,
  progress: 0,
  status: 'idle',
  state: null,
  Whatsapp: { id: 3, clientid: 'id-1-2', pushname: 'Ani', phonenumber: '6281' },
  createdAt: '2026-01-01T00:00:00.000Z',
  start_number: '6281200000000',
  end_number: '6281200000099',
  current_number: null,
};

describe('toolEventId', () => {
  it('reads the id of its own tool only; account events have none', () => {
    const payload = { value: '6281', target: 10, progress: 10 };
    const ofGenerator: LiveMessage = { event: 'progressing', payload: { ...gen, ...payload } };
    const ofValidator: LiveMessage = { event: 'progressing', payload: { ...val, ...payload } };
    expect(toolEventId(ofGenerator, 'generator')).toBe(7);
    expect(toolEventId(ofGenerator, 'validator')).toBeNull();
    expect(toolEventId(ofValidator, 'validator')).toBe(2);
    expect(toolEventId(account, 'generator')).toBeNull();
  });
});

describe('toolLivePatch', () => {
  it("ignores account events (they belong to the WhatsApp list) and the other tool's", () => {
    expect(toolLivePatch(account, 'generator')).toBeNull();
    expect(toolLivePatch({ event: 'stop', payload: { deviceId: 'd', status: 'idle' } }, 'validator')).toBeNull();
    expect(toolLivePatch({ event: 'validating', payload: { ...val, status: 'validating' } }, 'generator')).toBeNull();
  });

  it('marks the row running on generating / validating, each on its own list', () => {
    expect(
      toolLivePatch({ event: 'generating', payload: { ...gen, status: 'generating' } }, 'generator'),
    ).toMatchObject({
      status: 'generating',
      requesting: null,
    });
    expect(
      toolLivePatch({ event: 'validating', payload: { ...val, status: 'validating' } }, 'validator'),
    ).toMatchObject({
      status: 'validating',
    });
  });

  it('moves progress, and the current number on a generator, ending a wait', () => {
    expect(
      toolLivePatch(
        { event: 'progressing', payload: { ...gen, value: '6281200000005', target: 99, progress: 5.05 } },
        'generator',
      ),
    ).toEqual({ progress: 5.05, current_number: '6281200000005', waiting: false, waitTime: 0, attemptingCode: null });
    expect(
      toolLivePatch({ event: 'progressing', payload: { ...val, value: '6281', target: 8, progress: 50 } }, 'validator'),
    ).toEqual({ progress: 50, waiting: false, waitTime: 0, attemptingCode: null });
  });

  it('sets the counts and progress from the event and flashes them', () => {
    expect(toolLivePatch({ event: 'count_success', payload: { ...gen, value: 4, progress: 4 } }, 'generator')).toEqual({
      count_success: 4,
      successUpdated: true,
      attemptingCode: null,
      progress: 4,
    });
    expect(toolLivePatch({ event: 'count_fail', payload: { ...val, value: 9, progress: 12.5 } }, 'validator')).toEqual({
      count_fail: 9,
      failUpdated: true,
      attemptingCode: null,
      progress: 12.5,
    });
  });

  it('starts a wait with its seconds', () => {
    expect(toolLivePatch({ event: 'waiting', payload: { ...gen, waitTime: 2, value: '6281' } }, 'generator')).toEqual({
      waiting: true,
      waitTime: 2,
      attemptingCode: null,
    });
  });

  it('shows a retried check with its code until the next step', () => {
    expect(
      toolLivePatch(
        { event: 'attempting', payload: { ...gen, code: 'failed', value: '6281', attempt: 1 } },
        'generator',
      ),
    ).toEqual({ waiting: false, waitTime: 0, attemptingCode: 'failed' });
  });

  it('ends a run at 100 % with its state on finished and on its error event', () => {
    expect(
      toolLivePatch(
        { event: 'finished', payload: { ...gen, state: 'finished', status: 'idle', progress: 100 } },
        'generator',
      ),
    ).toEqual({
      status: 'idle',
      requesting: null,
      waiting: false,
      waitTime: 0,
      attemptingCode: null,
      state: 'finished',
      progress: 100,
    });
    expect(
      toolLivePatch(
        { event: 'error_validate', payload: { ...val, state: 'Whatsapp is not connected', status: 'idle' } },
        'validator',
      ),
    ).toMatchObject({ status: 'idle', state: 'Whatsapp is not connected', progress: 100 });
  });

  it('puts a stopped row back to idle without touching its progress, also when its account is gone', () => {
    const p = toolLivePatch(
      { event: 'stop', payload: { deviceId: null, tool: 'generator', generatorId: 7, status: 'idle' } },
      'generator',
    );
    expect(p).toEqual({ status: 'idle', requesting: null, waiting: false, waitTime: 0, attemptingCode: null });
  });
});

describe('toolStatusText', () => {
  const row = toToolRow(generator);
  it('shows the running text, the wait countdown, else the state or idle', () => {
    expect(toolStatusText(row, 'generator')).toBe('idle');
    expect(toolStatusText({ ...row, state: 'finished' }, 'generator')).toBe('finished');
    expect(toolStatusText({ ...row, status: 'generating' }, 'generator')).toBe('Generating...');
    expect(toolStatusText({ ...row, status: 'validating' }, 'validator')).toBe('Validating...');
    expect(toolStatusText({ ...row, status: 'generating', waiting: true, waitTime: 3 }, 'generator')).toBe(
      'Waiting (3s)...',
    );
    expect(
      toolStatusText(
        { ...row, status: 'generating', waiting: true, waitTime: 3, attemptingCode: 'failed' },
        'generator',
      ),
    ).toBe('Fail, attempting (failed)...');
    // a wait left over from a stopped run does not show
    expect(toolStatusText({ ...row, waiting: true, waitTime: 3 }, 'generator')).toBe('idle');
  });
});

describe('formatProgress', () => {
  it('shows a percent with 2 decimals', () => {
    expect(formatProgress(0)).toBe('0.00%');
    expect(formatProgress(12.5)).toBe('12.50%');
    expect(formatProgress(33.333333)).toBe('33.33%');
    expect(formatProgress(100)).toBe('100.00%');
    expect(formatProgress(null)).toBe('0.00%');
    expect(formatProgress(Number.NaN)).toBe('0.00%');
  });
});

describe('shortFileName', () => {
  it('keeps short names and the extension of long ones', () => {
    expect(shortFileName('numbers.csv')).toBe('numbers.csv');
    const short = shortFileName('a-very-long-file-name-with-many-numbers-2026.json');
    expect(short.length).toBeLessThanOrEqual(24);
    expect(short).toMatch(/^a-very-.*….*\.json$/);
  });
});

describe('matchesStatus', () => {
  it('filters running and idle; Semua keeps all', () => {
    expect(matchesStatus({ status: 'generating' }, 'running')).toBe(true);
    expect(matchesStatus({ status: 'validating' }, 'idle')).toBe(false);
    expect(matchesStatus({ status: 'idle' }, 'idle')).toBe(true);
    expect(matchesStatus({ status: 'idle' }, '')).toBe(true);
  });
});

describe('resultsCsv', () => {
  it('exports number,name,status with status active and neutralised formulas', () => {
    expect(
      resultsCsv([
        { number: '6281200000001', name: 'Ani' },
        { number: '6281200000002', name: '=HYPERLINK("x")' },
      ]),
    ).toBe('number,name,status\n6281200000001,Ani,active\n6281200000002,"\'=HYPERLINK(""x"")",active\n');
  });
  it('is null when there is nothing to export', () => {
    expect(resultsCsv([])).toBeNull();
  });
});

describe('toolFormErrors', () => {
  const form = {
    start_number: '6281200000010',
    end_number: '6281200000001',
    whatsapp_id: '',
    b_insert: false,
    interval_min: '5',
    interval_max: '2',
  };

  it('shows the two §5 order messages while typing, before an account is chosen', () => {
    expect(toolFormErrors(generatorBody, form, false)).toEqual({
      start_number: TOOL_TEXTS.startAfterEnd,
      interval_min: TOOL_TEXTS.minAfterMax,
    });
    expect(toolFormErrors(validatorFields, { whatsapp_id: '', interval_min: '3', interval_max: '1' }, false)).toEqual({
      interval_min: TOOL_TEXTS.minAfterMax,
    });
  });

  it('waits for both numbers before comparing them', () => {
    expect(toolFormErrors(generatorBody, { ...form, start_number: '', interval_min: '1' }, false)).toEqual({});
    expect(toolFormErrors(generatorBody, { ...form, end_number: '62812', interval_min: '1' }, false)).toEqual({});
  });

  it('shows every message after a submit, the account included', () => {
    const errors = toolFormErrors(generatorBody, { ...form, start_number: '' }, true);
    expect(errors).toMatchObject({
      start_number: 'Start number is required.',
      whatsapp_id: 'Account is required.',
      interval_min: TOOL_TEXTS.minAfterMax,
    });
  });

  it('has nothing to say about a valid form', () => {
    const ok = { ...form, start_number: '081200000001', end_number: '6281200000009', whatsapp_id: '3' };
    expect(toolFormErrors(generatorBody, { ...ok, interval_min: '1', interval_max: '2' }, true)).toEqual({});
  });
});
