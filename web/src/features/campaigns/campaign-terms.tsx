import type { CampaignDto } from '@wa/shared';
import type { ChangeEvent } from 'react';
import { FormField } from '../../components/form-field';
import { toLocalInput } from './campaign-ui';

/** A campaign's terms as the form holds them: text, as typed. */
export interface TermsValues {
  name: string;
  start_at: string;
  end_at: string;
  window_start: string;
  window_end: string;
  budget_messages: string;
  budget_amount: string;
  /** admin and dev only */
  price_per_delivered: string;
  /** admin and dev only */
  priority: string;
}

export const EMPTY_TERMS: TermsValues = {
  name: '',
  start_at: '',
  end_at: '',
  window_start: '',
  window_end: '',
  budget_messages: '',
  budget_amount: '',
  price_per_delivered: '',
  priority: '',
};

/** The form's values for a campaign as it is. */
export function termsOf(c: CampaignDto): TermsValues {
  const text = (n: number | null) => (n === null ? '' : String(n));
  return {
    name: c.name,
    start_at: toLocalInput(c.start_at),
    end_at: toLocalInput(c.end_at),
    window_start: c.window_start ?? '',
    window_end: c.window_end ?? '',
    budget_messages: text(c.budget_messages),
    budget_amount: text(c.budget_amount),
    price_per_delivered: String(c.price_per_delivered),
    priority: String(c.priority),
  };
}

/**
 * The values for the shared schema (createCampaignBody, updateCampaignBody): an empty field is
 * `blank` (left out of a new campaign, cleared on an edit); price and priority only from an admin
 * or dev, and only when given (the server refuses them from a client).
 */
export function termsInput(v: TermsValues, operator: boolean, blank: undefined | null): Record<string, unknown> {
  const or = (s: string) => (s.trim() === '' ? blank : s.trim());
  return {
    name: v.name,
    start_at: or(v.start_at),
    end_at: or(v.end_at),
    window_start: or(v.window_start),
    window_end: or(v.window_end),
    budget_messages: or(v.budget_messages),
    budget_amount: or(v.budget_amount),
    ...(operator
      ? { price_per_delivered: or(v.price_per_delivered) ?? undefined, priority: or(v.priority) ?? undefined }
      : {}),
  };
}

/**
 * The terms' fields: name, start and end, the daily send window, the budgets in messages and in
 * rupiah, and for an admin or dev the price per delivered message and the priority.
 */
export function TermsFields({
  values,
  onChange,
  errors,
  operator,
}: {
  values: TermsValues;
  onChange(field: keyof TermsValues, value: string): void;
  errors: Record<string, string>;
  operator: boolean;
}) {
  const field = (name: keyof TermsValues) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => onChange(name, e.target.value),
  });
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      <FormField label="Name" className="sm:col-span-2" {...field('name')} />
      <FormField label="Start" type="datetime-local" hint="Empty: as soon as it is approved" {...field('start_at')} />
      <FormField label="End" type="datetime-local" hint="Empty: until targets or budget run out" {...field('end_at')} />
      <FormField label="Send from" type="time" hint="Daily window; empty: the service's" {...field('window_start')} />
      <FormField label="Send until" type="time" {...field('window_end')} />
      <FormField label="Budget (messages)" inputMode="numeric" hint="Empty: no cap" {...field('budget_messages')} />
      <FormField label="Budget (Rp)" inputMode="numeric" hint="Empty: no cap" {...field('budget_amount')} />
      {operator && (
        <>
          <FormField label="Price per delivered (Rp)" inputMode="numeric" {...field('price_per_delivered')} />
          <FormField label="Priority" inputMode="numeric" hint="Higher goes first" {...field('priority')} />
        </>
      )}
    </div>
  );
}
