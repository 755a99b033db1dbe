import { normalizeRole } from '@wa/shared';
import { useEffect } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { useAuth } from '../auth/auth-context';
import { BlasterForm } from './blaster-form';
import { LoginCard } from './login-card';
import { useWhatsappLogin } from './use-whatsapp-login';

/**
 * /whatsapp/create 'Tambah Akun Whatsapp' (§2, §4 Account creation flow): the login card (?r=
 * reconnects an account, ?type= returns to the generator or validator list) and, under it, the
 * blaster form.
 */
export function WhatsappCreatePage() {
  const { user } = useAuth();
  const role = normalizeRole(user?.role);
  const { hash } = useLocation();
  const [params] = useSearchParams();
  const type = params.get('type');
  const login = useWhatsappLogin(Number(params.get('r')) || null, type);

  // /whatsapp/create#blaster (the list's Blaster button) scrolls to the form once the layout has
  // scrolled the new route to the top
  useEffect(() => {
    if (hash !== '#blaster') return;
    const t = setTimeout(() => document.getElementById('blaster')?.scrollIntoView({ behavior: 'smooth' }), 50);
    return () => clearTimeout(t);
  }, [hash]);

  return (
    <>
      <PageBreadcrumb title="Tambah Akun Whatsapp" />
      <div className="space-y-6">
        <LoginCard login={login} />
        {role !== 'staff' && !type && (
          <Card className="max-w-3xl">
            <BlasterForm />
          </Card>
        )}
      </div>
    </>
  );
}
