import { menuFor, type UserDto } from '@wa/shared';
import { AlignLeft, ChevronDown, LogOut, MonitorX, Moon, Pencil, Search, Sun, User, X } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { useSidebar } from './sidebar-context';
import { useTheme } from './use-theme';

function UserDropdown({ user }: { user: UserDto }) {
  const { logout, logoutEverywhere } = useAuth();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onClick = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onClick);
    return () => document.removeEventListener('mousedown', onClick);
  }, [open]);
  const name = `${user.firstname} ${user.lastname}`.trim();
  return (
    <div className="relative" ref={ref}>
      <button
        type="button"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        data-testid="user-menu"
        className="flex items-center gap-2 text-gray-700 dark:text-gray-400"
      >
        <span className="flex h-11 w-11 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-600 dark:bg-brand-500/20 dark:text-brand-300">
          {(user.firstname[0] ?? '?').toUpperCase()}
        </span>
        <span className="hidden text-sm font-medium sm:block">{user.firstname}</span>
        <ChevronDown size={18} className={`transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      {open && (
        <div className="absolute right-0 z-50 mt-4 w-[260px] rounded-2xl border border-gray-200 bg-white p-3 shadow-lg dark:border-gray-800 dark:bg-gray-900">
          <div className="border-b border-gray-200 px-3 pb-3 dark:border-gray-800">
            <span className="block text-sm font-medium text-gray-700 dark:text-gray-300">{name}</span>
            <span className="mt-0.5 block text-xs text-gray-500 dark:text-gray-400">{user.email}</span>
          </div>
          <ul className="flex flex-col gap-1 py-3">
            <li>
              <Link
                to="/profile?edit=true"
                onClick={() => setOpen(false)}
                className="flex items-center gap-3 rounded-lg px-3 py-2 text-sm text-gray-700 hover:bg-gray-100 dark:text-gray-400 dark:hover:bg-white/5"
              >
                <Pencil size={18} /> Edit profile
              </Link>
            </li>
            <li>
              <Link
                to="/profile"
                onClick={() => setOpen(false)}
                className="flex items-center gap-3 rounded-lg px-3 py-2 text-sm text-gray-700 hover:bg-gray-100 dark:text-gray-400 dark:hover:bg-white/5"
              >
                <User size={18} /> User Profile
              </Link>
            </li>
          </ul>
          <button
            type="button"
            onClick={logout}
            className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm text-gray-700 hover:bg-gray-100 dark:text-gray-400 dark:hover:bg-white/5"
          >
            <LogOut size={18} /> Sign out
          </button>
          <button
            type="button"
            onClick={() => void logoutEverywhere()}
            data-testid="logout-everywhere"
            title="Ends your session in every browser and device, this one included"
            className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm text-gray-700 hover:bg-gray-100 dark:text-gray-400 dark:hover:bg-white/5"
          >
            <MonitorX size={18} /> Sign out everywhere
          </button>
        </div>
      )}
    </div>
  );
}

/** The top bar (§2): menu toggle, Ctrl/Cmd+K search, theme toggle and the user dropdown. */
export function Header({ user }: { user: UserDto }) {
  const { toggle, isMobileOpen } = useSidebar();
  const { theme, toggle: toggleTheme } = useTheme();
  const navigate = useNavigate();
  const searchRef = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [notFound, setNotFound] = useState(false);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        searchRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // the search jumps to the first screen of the menu whose name holds the words typed
  const search = (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim().toLowerCase();
    if (!q) return;
    const items = menuFor(user.role).flatMap((i) => i.children ?? [i]);
    const hit = items.find((i) => !i.external && i.label.toLowerCase().includes(q));
    if (hit) {
      setQuery('');
      setNotFound(false);
      navigate(hit.path);
    } else setNotFound(true);
  };

  return (
    <header className="sticky top-0 z-40 flex w-full border-gray-200 bg-white lg:border-b dark:border-gray-800 dark:bg-gray-900">
      <div className="flex grow items-center justify-between gap-3 border-b border-gray-200 px-3 py-3 lg:border-b-0 lg:px-6 lg:py-4 dark:border-gray-800">
        <div className="flex items-center gap-3">
          <button
            type="button"
            onClick={toggle}
            aria-label="Toggle sidebar"
            data-testid="sidebar-toggle"
            className="flex h-10 w-10 items-center justify-center rounded-lg border border-gray-200 text-gray-500 lg:h-11 lg:w-11 dark:border-gray-800 dark:text-gray-400"
          >
            {isMobileOpen ? <X size={22} /> : <AlignLeft size={22} />}
          </button>
          <form onSubmit={search} className="hidden md:block">
            <div className="relative">
              <Search size={20} className="absolute top-1/2 left-4 -translate-y-1/2 text-gray-500 dark:text-gray-400" />
              <input
                ref={searchRef}
                type="text"
                value={query}
                onChange={(e) => {
                  setQuery(e.target.value);
                  setNotFound(false);
                }}
                placeholder="Search or type command..."
                aria-label="Search screens"
                aria-invalid={notFound || undefined}
                data-testid="header-search"
                className={`h-11 w-full rounded-lg border bg-transparent py-2.5 pr-14 pl-12 text-sm text-gray-800 placeholder:text-gray-400 focus:border-brand-300 focus:ring-3 focus:ring-brand-500/10 focus:outline-hidden xl:w-[430px] dark:bg-gray-900 dark:text-white/90 dark:placeholder:text-white/30 ${
                  notFound ? 'border-red-400' : 'border-gray-200 dark:border-gray-800'
                }`}
              />
              <kbd className="absolute top-1/2 right-2.5 -translate-y-1/2 rounded-lg border border-gray-200 bg-gray-50 px-[7px] py-[4.5px] text-xs text-gray-500 dark:border-gray-800 dark:bg-white/[0.03] dark:text-gray-400">
                ⌘ K
              </kbd>
            </div>
          </form>
        </div>
        <div className="flex items-center gap-3">
          <button
            type="button"
            onClick={toggleTheme}
            aria-label={theme === 'dark' ? 'Switch to light mode' : 'Switch to dark mode'}
            data-testid="theme-toggle"
            className="flex h-11 w-11 items-center justify-center rounded-full border border-gray-200 bg-white text-gray-500 hover:bg-gray-100 hover:text-gray-700 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-white"
          >
            {theme === 'dark' ? <Sun size={20} /> : <Moon size={20} />}
          </button>
          <UserDropdown user={user} />
        </div>
      </div>
    </header>
  );
}
