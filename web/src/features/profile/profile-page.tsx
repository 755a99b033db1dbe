import { Copy, Pencil } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { useAuth } from '../auth/auth-context';
import { ApiKeysCard } from './api-keys-card';
import { ProfileEditModal } from './profile-edit-modal';
import { WebhooksCard } from './webhooks-card';

function Row({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <div>
      <p className="mb-1 text-xs text-gray-500 dark:text-gray-400">{label}</p>
      <p className="text-sm font-medium break-all text-gray-800 dark:text-white/90">{value || '-'}</p>
    </div>
  );
}

/** /profile (§2 Settings and profile): details, referral code, copyable signup link, API keys, webhooks, edit modal. */
export function ProfilePage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const [copyMsg, setCopyMsg] = useState<{ ok: boolean; text: string } | null>(null);
  if (!user) return null;
  const editing = params.get('edit') === 'true' || params.get('edit') === '1';
  const link = `${window.location.origin}/signup?referral=${encodeURIComponent(user.referral_code)}`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopyMsg({ ok: true, text: 'Link copied to clipboard!' });
    } catch {
      setCopyMsg({ ok: false, text: 'Failed to copy the link.' });
    }
  };
  const setEditing = (open: boolean) => {
    const next = new URLSearchParams(params);
    if (open) next.set('edit', 'true');
    else next.delete('edit');
    setParams(next, { replace: true });
  };

  return (
    <>
      <PageBreadcrumb title="Profile" />
      <div className="space-y-6">
        <Card>
          <div className="flex flex-col gap-5 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex items-center gap-4">
              <span className="flex h-16 w-16 items-center justify-center rounded-full bg-brand-100 text-2xl font-semibold text-brand-600 dark:bg-brand-500/20 dark:text-brand-300">
                {(user.firstname[0] ?? '?').toUpperCase()}
              </span>
              <div>
                <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90" data-testid="profile-name">
                  {user.firstname} {user.lastname}
                </h3>
                <p className="text-sm text-gray-500 capitalize dark:text-gray-400">{user.role}</p>
              </div>
            </div>
            <Button variant="outline" onClick={() => setEditing(true)}>
              <Pencil size={16} /> Edit
            </Button>
          </div>
        </Card>
        <Card>
          <h4 className="mb-5 text-lg font-semibold text-gray-800 dark:text-white/90">Personal Information</h4>
          <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
            <Row label="First Name" value={user.firstname} />
            <Row label="Last Name" value={user.lastname} />
            <Row label="Email" value={user.email} />
            <Row label="Level" value={user.level} />
            <Row label="Bank" value={user.account_bank} />
            <Row label="Nomor Rekening" value={user.account_number} />
            <Row label="Nama Rekening" value={user.account_name} />
          </div>
        </Card>
        <Card>
          <h4 className="mb-5 text-lg font-semibold text-gray-800 dark:text-white/90">Referral</h4>
          <div className="space-y-4">
            <Row label="Kode Referral" value={user.referral_code} />
            <div>
              <p className="mb-1 text-xs text-gray-500 dark:text-gray-400">Link pendaftaran</p>
              <div className="flex flex-col gap-2 sm:flex-row">
                <input
                  readOnly
                  value={link}
                  data-testid="referral-link"
                  className="h-11 w-full rounded-lg border border-gray-300 bg-gray-50 px-4 text-sm text-gray-700 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-300"
                />
                <Button variant="outline" onClick={copy}>
                  <Copy size={16} /> Copy
                </Button>
              </div>
            </div>
            {copyMsg && <Alert tone={copyMsg.ok ? 'success' : 'error'}>{copyMsg.text}</Alert>}
          </div>
        </Card>
        <ApiKeysCard />
        {/* staff have no webhooks (the server refuses them too) */}
        {user.role !== 'staff' && <WebhooksCard />}
      </div>
      <ProfileEditModal open={editing} onClose={() => setEditing(false)} />
    </>
  );
}
