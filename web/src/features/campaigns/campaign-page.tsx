import { CAMPAIGN_TEXTS, type CampaignDto, normalizeRole } from '@wa/shared';
import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { Alert } from '../../components/alert';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { useAuth } from '../auth/auth-context';
import { CampaignFigures } from './campaign-figures';
import { CampaignHeader } from './campaign-header';
import { CampaignRepliesCard } from './campaign-replies-card';
import { CampaignReportTable } from './campaign-report-table';
import { CampaignTargetsCard } from './campaign-targets-card';
import { CampaignTermsCard } from './campaign-terms-card';
import { CampaignTopupsCard } from './campaign-topups-card';
import { isOperator } from './campaign-ui';
import { CampaignVariantsCard } from './campaign-variants-card';
import { useCampaign } from './use-campaign';

function BackLink() {
  return (
    <Link to="/campaigns" className="inline-flex items-center gap-1.5 text-sm text-brand-500 hover:underline">
      <ArrowLeft size={16} /> Campaigns
    </Link>
  );
}

/** A campaign that does not exist, or is another client's: the API answers both alike. */
function NotFound() {
  return (
    <>
      <PageBreadcrumb title="Campaign" />
      <Card>
        <div className="space-y-4" data-testid="campaign-not-found">
          <Alert tone="error">{CAMPAIGN_TEXTS.notFound}</Alert>
          <BackLink />
        </div>
      </Card>
    </>
  );
}

/**
 * /campaigns/:id (issue 22): the campaign's head and the moves the viewer may make, its progress
 * (budget use, counters, a chart per day), its report per day and variant, its terms, top-ups,
 * variants, targets and replies. It asks for its figures again every 5 s, so it follows a campaign
 * while it sends. Admins and devs also approve, price and top up; a client never sees the fees
 * and margin columns of the report.
 */
export function CampaignPage() {
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  return valid ? <Campaign id={id} /> : <NotFound />;
}

function Campaign({ id }: { id: number }) {
  const { user } = useAuth();
  const operator = isOperator(normalizeRole(user?.role));
  const state = useCampaign(id);
  const c = state.campaign;
  if (state.notFound) return <NotFound />;
  if (!c) {
    return (
      <>
        <PageBreadcrumb title="Campaign" />
        {state.error ? (
          <Alert tone="error">{state.error}</Alert>
        ) : (
          <p className="text-sm text-gray-500 dark:text-gray-400">Loading...</p>
        )}
      </>
    );
  }
  // a change answers with the campaign: show it at once, then ask for the rest again
  const changed = (next: CampaignDto) => {
    state.setCampaign(next);
    void state.reload();
  };
  const reload = () => void state.reload();

  return (
    <>
      <PageBreadcrumb title="Campaign" />
      <div className="mb-4">
        <BackLink />
      </div>
      {state.error && (
        <div className="mb-4">
          <Alert tone="error">{state.error}</Alert>
        </div>
      )}
      <CampaignHeader campaign={c} operator={operator} onChanged={changed} />
      <CampaignFigures campaign={c} report={state.report} />
      <CampaignReportTable campaignId={c.id} report={state.report} operator={operator} />
      <div className="mb-6 grid grid-cols-1 gap-6 xl:grid-cols-2">
        <CampaignTermsCard campaign={c} operator={operator} onSaved={changed} />
        <CampaignTopupsCard campaign={c} topups={state.topups} operator={operator} onRecorded={changed} />
      </div>
      <CampaignVariantsCard campaign={c} variants={state.variants} operator={operator} onChanged={reload} />
      <CampaignTargetsCard campaign={c} />
      <CampaignRepliesCard campaignId={c.id} />
    </>
  );
}
