import type { CampaignDto } from '@wa/shared';
import { budgetUse } from './campaign-ui';

/**
 * The budgets' use as bars: messages sent against the message budget, rupiah spent against the
 * rupiah budget; 'No budget cap' when it has neither. `compact` is the list's one-line form.
 */
export function BudgetBars({
  campaign,
  compact = false,
}: {
  campaign: Pick<CampaignDto, 'sent' | 'spent' | 'budget_messages' | 'budget_amount'>;
  compact?: boolean;
}) {
  const uses = budgetUse(campaign);
  if (!uses.length) return <span className="text-sm text-gray-500 dark:text-gray-400">No budget cap</span>;
  return (
    <div className={compact ? 'min-w-32 space-y-1.5' : 'space-y-4'}>
      {uses.map((u) => (
        <div key={u.key} data-testid={`budget-${u.key}`}>
          <div className="mb-1 flex flex-wrap justify-between gap-x-3 text-xs text-gray-500 dark:text-gray-400">
            <span>
              {u.label}: {u.used} / {u.limit}
            </span>
            <span className="font-medium text-gray-700 dark:text-gray-300">{u.percent}%</span>
          </div>
          <div
            role="progressbar"
            aria-label={`${u.label} used`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={u.percent}
            className={`w-full overflow-hidden rounded-full bg-gray-100 dark:bg-gray-800 ${compact ? 'h-1.5' : 'h-2.5'}`}
          >
            <div
              className={`h-full rounded-full ${u.percent >= 100 ? 'bg-red-500' : 'bg-brand-500'}`}
              style={{ width: `${u.percent}%` }}
            />
          </div>
        </div>
      ))}
    </div>
  );
}
