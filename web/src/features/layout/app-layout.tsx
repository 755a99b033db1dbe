import { normalizeRole } from '@wa/shared';
import { type ReactNode, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Alert } from '../../components/alert';
import { getToken } from '../../lib/cookies';
import { useAuth } from '../auth/auth-context';
import { HealthBanner } from '../health/health-banner';
import { Header } from './header';
import { Sidebar } from './sidebar';
import { SidebarProvider, useSidebar } from './sidebar-context';

function Shell({ children }: { children: ReactNode }) {
  const { user, error } = useAuth();
  const { isExpanded, isHovered, isMobileOpen, closeMobile } = useSidebar();
  const role = normalizeRole(user?.role);
  if (!user || !role) return null;
  return (
    <div className="min-h-screen xl:flex">
      <Sidebar role={role} />
      {isMobileOpen && (
        <button
          type="button"
          aria-label="Close menu"
          className="fixed inset-0 z-40 bg-gray-900/50 lg:hidden"
          onClick={closeMobile}
        />
      )}
      <div
        className={`min-w-0 flex-1 transition-all duration-300 ease-in-out ${
          isExpanded || isHovered ? 'lg:ml-[290px]' : 'lg:ml-[90px]'
        }`}
      >
        <Header user={user} />
        <main className="mx-auto max-w-(--breakpoint-2xl) p-4 md:p-6">
          {/* the installation's health is theirs to act on; members and staff never poll it */}
          {(role === 'admin' || role === 'dev') && <HealthBanner />}
          {error && (
            <div className="mb-4">
              <Alert tone="error">{error}</Alert>
            </div>
          )}
          {children}
        </main>
      </div>
    </div>
  );
}

/** What a screen shows while its code loads: a quiet placeholder where the page goes. */
function ScreenLoading() {
  return <div className="h-40 animate-pulse rounded-2xl bg-gray-100 dark:bg-gray-800" aria-busy="true" />;
}

/**
 * Every signed-in screen: no token goes to /signin; the token is validated once on load (a 401
 * logs out silently); each route change scrolls to the top.
 */
export function AppLayout() {
  const { user, validate } = useAuth();
  const location = useLocation();
  const token = getToken();

  useEffect(() => {
    if (token) void validate();
  }, [token, validate]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: every route change scrolls to the top (§2)
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);

  if (!token || !user || !normalizeRole(user.role)) return <Navigate to="/signin" replace />;
  return (
    <SidebarProvider>
      <Shell>
        {/* a screen's code loads when it is first opened (issue 23): the menu and header stay meanwhile */}
        <Suspense fallback={<ScreenLoading />}>
          <Outlet />
        </Suspense>
      </Shell>
    </SidebarProvider>
  );
}
