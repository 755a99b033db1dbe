import { canOpen, normalizeRole } from '@wa/shared';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useAuth } from '../auth/auth-context';

/**
 * Lets through only the roles of the route table (§2); others go to /not-authorized. Apart from
 * the layout, so the router holds it without loading the layout's code on the sign-in screen.
 */
export function RoleGuard({ path, children }: { path: string; children: ReactNode }) {
  const { user } = useAuth();
  const role = normalizeRole(user?.role);
  if (!role) return <Navigate to="/signin" replace />;
  if (!canOpen(role, path)) return <Navigate to="/not-authorized" replace />;
  return <>{children}</>;
}
