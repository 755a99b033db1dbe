import { ROUTE_ROLES } from '@wa/shared';
import { Suspense } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { AuthProvider } from './features/auth/auth-context';
import { ReferralCapture } from './features/auth/referral-capture';
import { SignInPage } from './features/auth/sign-in-page';
import { RoleGuard } from './features/layout/role-guard';
import { lazyScreen } from './lib/lazy-screen';

// every screen but the sign-in loads when first shown (issue 23): /signin carries only itself
const PublicTextPage = lazyScreen(() => import('./features/auth/public-text-page').then((m) => m.PublicTextPage));
const ResetPasswordPage = lazyScreen(() =>
  import('./features/auth/reset-password-page').then((m) => m.ResetPasswordPage),
);
const SignUpPage = lazyScreen(() => import('./features/auth/sign-up-page').then((m) => m.SignUpPage));
const BonusCreatePage = lazyScreen(() => import('./features/bonus/bonus-create-page').then((m) => m.BonusCreatePage));
const BonusPage = lazyScreen(() => import('./features/bonus/bonus-page').then((m) => m.BonusPage));
const CampaignPage = lazyScreen(() => import('./features/campaigns/campaign-page').then((m) => m.CampaignPage));
const CampaignsPage = lazyScreen(() => import('./features/campaigns/campaigns-page').then((m) => m.CampaignsPage));
const DashboardPage = lazyScreen(() => import('./features/dashboard/dashboard-page').then((m) => m.DashboardPage));
const NotAuthorizedPage = lazyScreen(() =>
  import('./features/errors/not-authorized-page').then((m) => m.NotAuthorizedPage),
);
const NotFoundPage = lazyScreen(() => import('./features/errors/not-found-page').then((m) => m.NotFoundPage));
const GeneratorFormPage = lazyScreen(() =>
  import('./features/generator/generator-form-page').then((m) => m.GeneratorFormPage),
);
const GeneratorListPage = lazyScreen(() =>
  import('./features/generator/generator-list-page').then((m) => m.GeneratorListPage),
);
const ScreenFor = lazyScreen(() => import('./features/screens/screen-page').then((m) => m.ScreenFor));
const AppLayout = lazyScreen(() => import('./features/layout/app-layout').then((m) => m.AppLayout));
const LevelFormPage = lazyScreen(() => import('./features/levels/level-form-page').then((m) => m.LevelFormPage));
const LevelsPage = lazyScreen(() => import('./features/levels/levels-page').then((m) => m.LevelsPage));
const MemberEditPage = lazyScreen(() => import('./features/members/member-edit-page').then((m) => m.MemberEditPage));
const MembersPage = lazyScreen(() => import('./features/members/members-page').then((m) => m.MembersPage));
const MonitorPage = lazyScreen(() => import('./features/monitor/monitor-page').then((m) => m.MonitorPage));
const MonitorRealtimePage = lazyScreen(() =>
  import('./features/monitor/realtime-page').then((m) => m.MonitorRealtimePage),
);
const PhoneNumberCreatePage = lazyScreen(() =>
  import('./features/phone-numbers/phone-number-create-page').then((m) => m.PhoneNumberCreatePage),
);
const PhoneNumberEditPage = lazyScreen(() =>
  import('./features/phone-numbers/phone-number-edit-page').then((m) => m.PhoneNumberEditPage),
);
const PhoneNumbersPage = lazyScreen(() =>
  import('./features/phone-numbers/phone-numbers-page').then((m) => m.PhoneNumbersPage),
);
const ProfilePage = lazyScreen(() => import('./features/profile/profile-page').then((m) => m.ProfilePage));
const ProxiesPage = lazyScreen(() => import('./features/proxies/proxies-page').then((m) => m.ProxiesPage));
const ProxyCreatePage = lazyScreen(() => import('./features/proxies/proxy-create-page').then((m) => m.ProxyCreatePage));
const ProxyEditPage = lazyScreen(() => import('./features/proxies/proxy-edit-page').then((m) => m.ProxyEditPage));
const ReferralPage = lazyScreen(() => import('./features/referral/referral-page').then((m) => m.ReferralPage));
const ReportPage = lazyScreen(() => import('./features/report/report-page').then((m) => m.ReportPage));
const SettingsPage = lazyScreen(() => import('./features/settings/settings-page').then((m) => m.SettingsPage));
const TemplateFormPage = lazyScreen(() =>
  import('./features/templates/template-form-page').then((m) => m.TemplateFormPage),
);
const TemplatesPage = lazyScreen(() => import('./features/templates/templates-page').then((m) => m.TemplatesPage));
const ValidatorFormPage = lazyScreen(() =>
  import('./features/validator/validator-form-page').then((m) => m.ValidatorFormPage),
);
const ValidatorListPage = lazyScreen(() =>
  import('./features/validator/validator-list-page').then((m) => m.ValidatorListPage),
);
const BlasterPage = lazyScreen(() => import('./features/whatsapp/blaster-page').then((m) => m.BlasterPage));
const WhatsappCreatePage = lazyScreen(() =>
  import('./features/whatsapp/whatsapp-create-page').then((m) => m.WhatsappCreatePage),
);
const WhatsappListPage = lazyScreen(() =>
  import('./features/whatsapp/whatsapp-list-page').then((m) => m.WhatsappListPage),
);
const WithdrawPage = lazyScreen(() => import('./features/withdraw/withdraw-page').then((m) => m.WithdrawPage));
const WithdrawRequestedPage = lazyScreen(() =>
  import('./features/withdraw/withdraw-requested-page').then((m) => m.WithdrawRequestedPage),
);

function Root() {
  return (
    <AuthProvider>
      <ReferralCapture />
      <Suspense fallback={null}>
        <Outlet />
      </Suspense>
    </AuthProvider>
  );
}

const PAGES: Record<string, React.ReactNode> = {
  '/': <DashboardPage />,
  '/dashboard': <DashboardPage />,
  '/profile': <ProfilePage />,
  '/phonenumber': <PhoneNumbersPage />,
  '/phonenumber/create': <PhoneNumberCreatePage />,
  '/phonenumber/edit': <PhoneNumberEditPage />,
  '/proxy': <ProxiesPage />,
  '/proxy/create': <ProxyCreatePage />,
  '/proxy/edit': <ProxyEditPage />,
  '/level': <LevelsPage />,
  '/level/create': <LevelFormPage />,
  '/level/edit': <LevelFormPage />,
  '/settings': <SettingsPage />,
  '/member': <MembersPage />,
  '/member/edit': <MemberEditPage />,
  '/message': <TemplatesPage />,
  '/message/create': <TemplateFormPage />,
  '/message/edit': <TemplateFormPage />,
  '/whatsapp': <WhatsappListPage />,
  '/member/whatsapp': <WhatsappListPage />,
  '/whatsapp/create': <WhatsappCreatePage />,
  '/blaster': <BlasterPage />,
  '/generator/list': <GeneratorListPage />,
  '/generator/create': <GeneratorFormPage />,
  '/validator/list': <ValidatorListPage />,
  '/validator/create': <ValidatorFormPage />,
  '/bonus': <BonusPage />,
  '/bonus/create': <BonusCreatePage />,
  '/referral': <ReferralPage />,
  '/withdraw': <WithdrawPage />,
  '/withdraw/requested': <WithdrawRequestedPage />,
  '/report': <ReportPage />,
  '/campaigns': <CampaignsPage />,
  '/campaigns/:id': <CampaignPage />,
  '/monitor/local': <MonitorPage kind="local" />,
  '/monitor/remote': <MonitorPage kind="remote" />,
  '/monitor/socket': <MonitorPage kind="socket" />,
  '/monitor/realtime': <MonitorRealtimePage />,
};

/** Every protected screen of the route table, each behind its role guard. */
const protectedRoutes: RouteObject[] = Object.keys(ROUTE_ROLES).map((path) => ({
  path,
  element: <RoleGuard path={path}>{PAGES[path] ?? <ScreenFor path={path} />}</RoleGuard>,
}));

export const router = createBrowserRouter([
  {
    element: <Root />,
    children: [
      { path: '/signin', element: <SignInPage /> },
      { path: '/signup', element: <SignUpPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/terms', element: <PublicTextPage kind="terms" /> },
      { path: '/privacy-policy', element: <PublicTextPage kind="privacy" /> },
      { path: '/not-authorized', element: <NotAuthorizedPage /> },
      { element: <AppLayout />, children: protectedRoutes },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
