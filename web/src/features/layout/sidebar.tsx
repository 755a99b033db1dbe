import { type MenuItem, menuFor, type Role, TELEGRAM_URL } from '@wa/shared';
import { ChevronDown, MessageCircle } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { usePublicSettings } from '../settings/public-settings';
import { MENU_ICONS } from './menu-icons';
import { useSidebar } from './sidebar-context';

function isActive(item: MenuItem, pathname: string): boolean {
  if (item.path === '/') return pathname === '/' || pathname === '/dashboard';
  return pathname === item.path || pathname.startsWith(`${item.path}/`);
}

/**
 * The menu's Telegram item links where settings' `telegram_url` says (issue 20); it is hidden
 * while that is empty or not read yet. TELEGRAM_URL only marks the item in the shared menu.
 */
function withTelegram(items: MenuItem[], telegramUrl: string | null): MenuItem[] {
  return items.flatMap((item) => {
    if (item.path !== TELEGRAM_URL) return [item];
    return telegramUrl ? [{ ...item, path: telegramUrl }] : [];
  });
}

/** The role's menu (§2): 290 px expanded, 90 px collapsed, expands on hover, a drawer on small screens. */
export function Sidebar({ role }: { role: Role }) {
  const { settings } = usePublicSettings();
  const { isExpanded, isMobileOpen, isHovered, setHovered, openSubmenu, toggleSubmenu, closeMobile } = useSidebar();
  const { pathname } = useLocation();
  const wide = isExpanded || isHovered || isMobileOpen;
  const itemClass = (active: boolean) =>
    `group relative flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium ${
      active
        ? 'bg-brand-50 text-brand-500 dark:bg-brand-500/[0.12] dark:text-brand-400'
        : 'text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-white/5'
    } ${wide ? 'justify-start' : 'lg:justify-center'}`;

  const renderItem = (item: MenuItem) => {
    const Icon = MENU_ICONS[item.icon] ?? MessageCircle;
    const active = isActive(item, pathname);
    const label = <span className={wide ? '' : 'lg:hidden'}>{item.label}</span>;
    if (item.children) {
      const open = openSubmenu === item.path;
      return (
        <li key={item.path}>
          <button
            type="button"
            className={itemClass(active)}
            aria-expanded={open}
            onClick={() => toggleSubmenu(item.path)}
          >
            <Icon size={22} />
            {label}
            {wide && <ChevronDown size={18} className={`ml-auto transition-transform ${open ? 'rotate-180' : ''}`} />}
          </button>
          {open && wide && (
            <ul className="mt-2 ml-9 space-y-1">
              {item.children.map((child) => (
                <li key={child.path}>
                  <Link
                    to={child.path}
                    onClick={closeMobile}
                    className={`block rounded-lg px-3 py-2 text-sm ${
                      pathname === child.path
                        ? 'bg-brand-50 text-brand-500 dark:bg-brand-500/[0.12] dark:text-brand-400'
                        : 'text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-white/5'
                    }`}
                  >
                    {child.label}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </li>
      );
    }
    if (item.external) {
      return (
        <li key={item.path}>
          <a href={item.path} target="_blank" rel="noreferrer" className={itemClass(false)}>
            <Icon size={22} />
            {label}
          </a>
        </li>
      );
    }
    return (
      <li key={item.path}>
        <Link
          to={item.path}
          onClick={closeMobile}
          className={itemClass(active)}
          aria-current={active ? 'page' : undefined}
        >
          <Icon size={22} />
          {label}
        </Link>
      </li>
    );
  };

  return (
    <aside
      data-testid="sidebar"
      data-expanded={wide ? 'true' : 'false'}
      onMouseEnter={() => !isExpanded && setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      className={`fixed top-0 left-0 z-50 flex h-screen flex-col border-r border-gray-200 bg-white px-5 text-gray-900 transition-all duration-300 ease-in-out dark:border-gray-800 dark:bg-gray-900 ${
        wide ? 'w-[290px]' : 'w-[90px]'
      } ${isMobileOpen ? 'translate-x-0' : '-translate-x-full'} lg:translate-x-0`}
    >
      <div className={`flex py-8 ${wide ? 'justify-start' : 'lg:justify-center'}`}>
        <Link to="/" className="flex items-center gap-2">
          <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-brand-500 text-white">
            <MessageCircle size={20} />
          </span>
          {wide && <span className="text-lg font-semibold text-gray-800 dark:text-white/90">WA Blaster</span>}
        </Link>
      </div>
      <nav className="no-scrollbar flex flex-col overflow-y-auto" aria-label="Main menu">
        <h2 className={`mb-4 text-xs text-gray-400 uppercase ${wide ? '' : 'lg:text-center'}`}>
          {wide ? 'Menu' : '•••'}
        </h2>
        <ul className="mb-6 flex flex-col gap-2">
          {withTelegram(menuFor(role), settings?.telegram_url ?? null).map(renderItem)}
        </ul>
      </nav>
    </aside>
  );
}
