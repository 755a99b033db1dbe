import { ROUTE_ROLES } from '@wa/shared';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { AuthProvider } from './features/auth/auth-context';
import { PublicTextPage } from './features/auth/public-text-page';
import { ReferralCapture } from './features/auth/referral-capture';
import { ResetPasswordPage } from './features/auth/reset-password-page';
import { SignInPage } from './features/auth/sign-in-page';
import { SignUpPage } from './features/auth/sign-up-page';
import { BonusCreatePage } from './features/bonus/bonus-create-page';
import { BonusPage } from './features/bonus/bonus-page';
import { CampaignPage } from './features/campaigns/campaign-page';
import { CampaignsPage } from './features/campaigns/campaigns-page';
import { DashboardPage } from './features/dashboard/dashboard-page';
import { NotAuthorizedPage } from './features/errors/not-authorized-page';
import { NotFoundPage } from './features/errors/not-found-page';
import { GeneratorFormPage } from './features/generator/generator-form-page';
import { GeneratorListPage } from './features/generator/generator-list-page';
import { AppLayout, RoleGuard } from './features/layout/app-layout';
import { LevelFormPage } from './features/levels/level-form-page';
import { LevelsPage } from './features/levels/levels-page';
import { MemberEditPage } from './features/members/member-edit-page';
import { MembersPage } from './features/members/members-page';
import { MonitorPage } from './features/monitor/monitor-page';
import { MonitorRealtimePage } from './features/monitor/realtime-page';
import { PhoneNumberCreatePage } from './features/phone-numbers/phone-number-create-page';
import { PhoneNumberEditPage } from './features/phone-numbers/phone-number-edit-page';
import { PhoneNumbersPage } from './features/phone-numbers/phone-numbers-page';
import { ProfilePage } from './features/profile/profile-page';
import { ProxiesPage } from './features/proxies/proxies-page';
import { ProxyCreatePage } from './features/proxies/proxy-create-page';
import { ProxyEditPage } from './features/proxies/proxy-edit-page';
import { ReferralPage } from './features/referral/referral-page';
import { ReportPage } from './features/report/report-page';
import { SCREEN_TITLES, ScreenPage } from './features/screens/screen-page';
import { SettingsPage } from './features/settings/settings-page';
import { TemplateFormPage } from './features/templates/template-form-page';
import { TemplatesPage } from './features/templates/templates-page';
import { ValidatorFormPage } from './features/validator/validator-form-page';
import { ValidatorListPage } from './features/validator/validator-list-page';
import { BlasterPage } from './features/whatsapp/blaster-page';
import { WhatsappCreatePage } from './features/whatsapp/whatsapp-create-page';
import { WhatsappListPage } from './features/whatsapp/whatsapp-list-page';
import { WithdrawPage } from './features/withdraw/withdraw-page';
import { WithdrawRequestedPage } from './features/withdraw/withdraw-requested-page';

function Root() {
  return (
    <AuthProvider>
      <ReferralCapture />
      <Outlet />
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
  element: <RoleGuard path={path}>{PAGES[path] ?? <ScreenPage title={SCREEN_TITLES[path] ?? path} />}</RoleGuard>,
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
