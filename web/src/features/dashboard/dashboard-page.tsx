import { Navigate } from 'react-router';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { useAuth } from '../auth/auth-context';

/** / and /dashboard (§2 Dashboard): staff go to withdrawal requests; members and admins get their own view. */
export function DashboardPage() {
  const { user } = useAuth();
  if (!user) return null;
  if (user.role === 'staff') return <Navigate to="/withdraw/requested?page=1" replace />;
  const member = user.role === 'member';
  return (
    <>
      <PageBreadcrumb title={member ? 'Dashboard Member' : 'Dashboard Admin'} />
      <Card>
        <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90" data-testid="greeting">
          Hai, {user.firstname}
        </h3>
        <p className="mt-1 text-sm text-gray-500 dark:text-gray-400">
          {member
            ? 'Hubungkan akun WhatsApp Anda dan mulai blast untuk mendapatkan pendapatan.'
            : 'Ringkasan layanan WA Blaster.'}
        </p>
      </Card>
    </>
  );
}
