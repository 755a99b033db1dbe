import { formatRupiah, type LiveMessage, type UserDto } from '@wa/shared';
import {
  CalendarCheck,
  ChartColumn,
  CircleCheck,
  CircleX,
  Gift,
  Globe,
  HandCoins,
  Megaphone,
  PhoneOff,
  PhoneOutgoing,
  Smartphone,
  UserCheck,
  Wallet,
} from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useLiveEvents } from '../../api/use-live-events';
import { Alert } from '../../components/alert';
import { Marquee } from '../../components/marquee';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { StatCard, StatSplit } from '../../components/stat-card';
import { useAuth } from '../auth/auth-context';
import { DashboardCharts } from './dashboard-charts';
import { FirstRunChecklist } from './first-run-checklist';
import { type Charts, useCharts } from './use-charts';
import { type Dashboard, useDashboard } from './use-dashboard';
import { useFirstRun } from './use-first-run';

/** A count in the id-ID style (1.234), or null while unknown. */
const count = (n: number | undefined) => (n === undefined ? null : n.toLocaleString('id-ID'));
/** Whole rupiah, id-ID, no decimals (§1, §9), or null while unknown. */
const money = (n: number | undefined) => (n === undefined ? null : formatRupiah(n));

/**
 * / and /dashboard (§2 Dashboard): staff go to withdrawal requests, clients to their campaigns;
 * members and admins get their own view.
 */
export function DashboardPage() {
  const { user } = useAuth();
  if (!user) return null;
  if (user.role === 'staff') return <Navigate to="/withdraw/requested?page=1" replace />;
  if (user.role === 'client') return <Navigate to="/campaigns" replace />;
  return user.role === 'member' ? <MemberDashboard user={user} /> : <AdminDashboard user={user} />;
}

function Errors({ errors }: { errors: string[] }) {
  if (!errors.length) return null;
  return (
    <Alert tone="error">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </Alert>
  );
}

/** The dashboard's figures and charts (and what else `alsoOnLive` feeds), refreshed after live events over one socket. */
function useLiveDashboard(user: UserDto, alsoOnLive?: (message: LiveMessage) => void): Dashboard & { charts: Charts } {
  const dashboard = useDashboard(user);
  const charts = useCharts();
  useLiveEvents((message) => {
    dashboard.onLive(message);
    charts.onLive(message);
    alsoOnLive?.(message);
  });
  return { ...dashboard, charts };
}

type Stat = Omit<ComponentProps<typeof StatCard>, 'children'> & { children?: ReactNode };

/** A row of stat cards: four across on wide screens, else three. */
function StatGrid({ stats, wide = false }: { stats: Stat[]; wide?: boolean }) {
  return (
    <div className={`grid grid-cols-1 gap-4 sm:grid-cols-2 md:gap-6 ${wide ? 'xl:grid-cols-4' : 'xl:grid-cols-3'}`}>
      {stats.map((stat) => (
        <StatCard key={stat.testId} {...stat} />
      ))}
    </div>
  );
}

/** Active and inactive WhatsApp accounts: the member's own, or everyone's on the admin dashboard. */
const whatsappStats = (c: { connectedCount: number; disconnectedCount: number } | undefined): Stat[] => [
  {
    icon: Smartphone,
    tone: 'success',
    label: 'WhatsApp Aktif',
    value: count(c?.connectedCount),
    testId: 'stat-wa-active',
  },
  {
    icon: PhoneOff,
    tone: 'neutral',
    label: 'WhatsApp Tidak Aktif',
    value: count(c?.disconnectedCount),
    testId: 'stat-wa-inactive',
  },
];

/** 'Dashboard Member': greeting, the settings' info banner, and the member's own figures. */
function MemberDashboard({ user }: { user: UserDto }) {
  const { values, info, errors, charts } = useLiveDashboard(user);
  return (
    <>
      <PageBreadcrumb title="Dashboard Member" />
      <div className="space-y-4 md:space-y-6">
        <Card>
          <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90" data-testid="greeting">
            Hai, {user.firstname}
          </h3>
          <p className="mt-1 text-sm text-gray-500 dark:text-gray-400">
            Hubungkan akun WhatsApp Anda dan mulai blast untuk mendapatkan pendapatan.
          </p>
          {info ? (
            <div
              className="mt-4 flex items-center gap-3 rounded-xl bg-brand-50 px-4 py-3 text-sm font-medium text-brand-700 dark:bg-brand-500/15 dark:text-brand-400"
              data-testid="info-banner"
            >
              <Megaphone size={18} className="shrink-0" aria-hidden="true" />
              <div className="min-w-0 flex-1">
                <Marquee text={info} />
              </div>
            </div>
          ) : null}
        </Card>
        <Errors errors={errors} />
        <StatGrid
          wide
          stats={[
            ...whatsappStats(values.whatsappCount),
            {
              icon: CircleCheck,
              tone: 'success',
              label: 'Blast Berhasil',
              value: count(values.messageLogCount?.successCount),
              testId: 'stat-blast-success',
            },
            {
              icon: CircleX,
              tone: 'error',
              label: 'Blast Gagal',
              value: count(values.messageLogCount?.failCount),
              testId: 'stat-blast-fail',
            },
          ]}
        />
        <StatGrid
          stats={[
            {
              icon: HandCoins,
              label: 'Pendapatan Hari Ini',
              value: money(values.todayIncome),
              testId: 'stat-today-income',
            },
            { icon: Wallet, label: 'Sisa Saldo', value: money(values.balance), testId: 'stat-balance' },
            {
              icon: Gift,
              tone: 'warning',
              label: 'Total Bonus',
              value: money(values.totalBonus),
              testId: 'stat-total-bonus',
            },
          ]}
        />
        <DashboardCharts data={charts.data} error={charts.error} income />
      </div>
    </>
  );
}

/** 'Dashboard Admin' (admin and dev): the first-run checklist until it is done, and the service's figures over every member. */
function AdminDashboard({ user }: { user: UserDto }) {
  const firstRun = useFirstRun();
  const { values, errors, charts } = useLiveDashboard(user, firstRun.onLive);
  const split = (v: { success: number; fail: number } | undefined) => [
    { label: 'Berhasil', value: count(v?.success), tone: 'success' as const },
    { label: 'Gagal', value: count(v?.fail), tone: 'error' as const },
  ];
  return (
    <>
      <PageBreadcrumb title="Dashboard Admin" />
      <div className="space-y-4 md:space-y-6">
        <FirstRunChecklist data={firstRun.data} role={user.role} />
        <Errors errors={errors} />
        <StatGrid
          wide
          stats={[
            {
              icon: Globe,
              label: 'Proxy Belum Dipakai',
              value: count(values.proxyCount?.unUsed),
              testId: 'stat-proxy-unused',
            },
            {
              icon: PhoneOutgoing,
              tone: 'warning',
              label: 'Nomor Belum Diblast',
              value: count(values.phoneCount?.unBlasted),
              testId: 'stat-phone-unblasted',
            },
            ...whatsappStats(values.whatsappCount),
          ]}
        />
        <StatGrid
          stats={[
            {
              icon: UserCheck,
              label: 'Member Aktif',
              value: count(values.usersActiveCount?.count),
              testId: 'stat-members-active',
            },
            {
              icon: CalendarCheck,
              label: 'Blast Hari Ini',
              testId: 'stat-blast-today',
              children: <StatSplit items={split(values.todayCount)} testId="stat-blast-today" />,
            },
            {
              icon: ChartColumn,
              label: 'Total Blast',
              testId: 'stat-blast-total',
              children: <StatSplit items={split(values.totalCount)} testId="stat-blast-total" />,
            },
          ]}
        />
        <DashboardCharts data={charts.data} error={charts.error} income={false} />
      </div>
    </>
  );
}
