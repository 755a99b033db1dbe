import type { CampaignReportRow } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import { budgetUse, movesFor, perDay, reportFigures, termsEditable, toLocalInput } from './campaign-ui';

const row = (day: string, variant: number, sent: number, delivered: number, replied: number): CampaignReportRow => ({
  day,
  variant_id: variant,
  sent,
  delivered,
  read: 0,
  failed: 0,
  unknown: 0,
  replied,
  optout: 0,
  cost: 0,
  fees: 0,
  margin: 0,
});

describe('movesFor', () => {
  it('never offers a client the approval, and offers the operator every move', () => {
    expect(movesFor('pending', false).map((m) => m.to)).toEqual(['draft', 'finished']);
    expect(movesFor('pending', true).map((m) => m.to)).toEqual(['draft', 'active', 'finished']);
    expect(movesFor('draft', false).map((m) => m.label)).toEqual(['Submit for approval', 'Finish']);
    expect(movesFor('active', false).map((m) => m.label)).toEqual(['Pause', 'Finish']);
    expect(movesFor('paused', false).map((m) => m.label)).toEqual(['Resume', 'Finish']);
    expect(movesFor('finished', true)).toEqual([]);
    // finishing asks first
    expect(movesFor('active', true).find((m) => m.to === 'finished')?.confirm).toBeTruthy();
  });
});

describe('termsEditable', () => {
  it('lets a client change draft, pending and paused campaigns, an operator any until finished', () => {
    expect(['draft', 'pending', 'paused'].every((s) => termsEditable(s as 'draft', false))).toBe(true);
    expect(termsEditable('active', false)).toBe(false);
    expect(termsEditable('active', true)).toBe(true);
    expect(termsEditable('finished', true)).toBe(false);
  });
});

describe('budgetUse', () => {
  it('measures sent against the message budget and spent against the rupiah budget, capped at 100%', () => {
    expect(budgetUse({ sent: 25, spent: 0, budget_messages: 100, budget_amount: null })).toEqual([
      { key: 'messages', label: 'Messages', used: '25', limit: '100', percent: 25 },
    ]);
    const both = budgetUse({ sent: 5, spent: 15_000, budget_messages: 4, budget_amount: 10_000 });
    expect(both.map((b) => b.percent)).toEqual([100, 100]);
    expect(both[1]).toMatchObject({ used: 'Rp 15.000', limit: 'Rp 10.000' });
    expect(budgetUse({ sent: 5, spent: 5, budget_messages: null, budget_amount: null })).toEqual([]);
  });
});

describe('reportFigures', () => {
  it('keeps the fees and the margin from a client', () => {
    expect(reportFigures(false).map((f) => f.key)).not.toContain('fees');
    expect(reportFigures(false).map((f) => f.key)).not.toContain('margin');
    expect(reportFigures(true).map((f) => f.key)).toEqual(expect.arrayContaining(['cost', 'fees', 'margin']));
  });
});

describe('perDay', () => {
  it('sums the variants of each day, oldest day first', () => {
    const days = perDay([row('2026-12-02', 2, 1, 1, 0), row('2026-12-01', 1, 3, 2, 1), row('2026-12-01', 2, 2, 2, 1)]);
    expect(days).toEqual({ days: ['2026-12-01', '2026-12-02'], sent: [5, 1], delivered: [4, 1], replied: [2, 0] });
  });
});

describe('toLocalInput', () => {
  it("gives a datetime-local input's value in the browser's time", () => {
    const d = new Date(2026, 11, 24, 9, 5);
    expect(toLocalInput(d.toISOString())).toBe('2026-12-24T09:05');
    expect(toLocalInput(null)).toBe('');
  });
});
