import { DESKTOP_BREAKPOINT, MOBILE_BREAKPOINT } from '@wa/shared';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';

interface SidebarState {
  isExpanded: boolean;
  isMobile: boolean;
  isMobileOpen: boolean;
  isHovered: boolean;
  openSubmenu: string | null;
  /** the header button: collapses on desktop (≥1024 px), opens the drawer below it */
  toggle(): void;
  closeMobile(): void;
  setHovered(v: boolean): void;
  /** one submenu open at a time; choosing the open one again closes it */
  toggleSubmenu(key: string): void;
}

const SidebarContext = createContext<SidebarState | null>(null);

/** The sidebar flags of §2: expanded (290 px) or collapsed (90 px), hover, mobile drawer, submenu. */
export function SidebarProvider({ children }: { children: ReactNode }) {
  const [isExpanded, setExpanded] = useState(true);
  const [isMobileOpen, setMobileOpen] = useState(false);
  const [isMobile, setMobile] = useState(() => window.innerWidth < MOBILE_BREAKPOINT);
  const [isHovered, setHovered] = useState(false);
  const [openSubmenu, setOpenSubmenu] = useState<string | null>(null);

  useEffect(() => {
    const onResize = () => {
      const mobile = window.innerWidth < MOBILE_BREAKPOINT;
      setMobile(mobile);
      // the drawer flag resets when the window is widened
      if (!mobile) setMobileOpen(false);
    };
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const toggle = useCallback(() => {
    if (window.innerWidth >= DESKTOP_BREAKPOINT) setExpanded((v) => !v);
    else setMobileOpen((v) => !v);
  }, []);
  const closeMobile = useCallback(() => setMobileOpen(false), []);
  const toggleSubmenu = useCallback((key: string) => setOpenSubmenu((cur) => (cur === key ? null : key)), []);

  const value = useMemo(
    () => ({
      isExpanded: isMobile ? false : isExpanded,
      isMobile,
      isMobileOpen,
      isHovered,
      openSubmenu,
      toggle,
      closeMobile,
      setHovered,
      toggleSubmenu,
    }),
    [isExpanded, isMobile, isMobileOpen, isHovered, openSubmenu, toggle, closeMobile, toggleSubmenu],
  );
  return <SidebarContext.Provider value={value}>{children}</SidebarContext.Provider>;
}

export function useSidebar(): SidebarState {
  const ctx = useContext(SidebarContext);
  if (!ctx) throw new Error('useSidebar outside SidebarProvider');
  return ctx;
}
