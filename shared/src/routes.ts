import { type Role, TELEGRAM_URL } from './constants';

/**
 * The route table of spec §2: which roles may open which screen. The web guards and the sidebar
 * read it; the server enforces the matching rules on its API routes.
 */
export const ROUTE_ROLES: Record<string, readonly Role[]> = {
  /** issue 22's client: their home leads to their campaigns */
  '/': ['member', 'dev', 'admin', 'staff', 'client'],
  '/dashboard': ['member', 'dev', 'admin', 'staff', 'client'],
  '/profile': ['member', 'dev', 'admin', 'staff', 'client'],
  '/whatsapp/create': ['member', 'dev', 'admin', 'staff'],
  '/bonus': ['dev', 'admin', 'member'],
  '/whatsapp': ['dev', 'admin', 'member'],
  '/referral': ['dev', 'admin', 'member'],
  '/withdraw': ['dev', 'member'],
  '/generator/list': ['dev', 'admin', 'staff'],
  '/generator/create': ['dev', 'admin', 'staff'],
  '/validator/list': ['dev', 'admin', 'staff'],
  '/validator/create': ['dev', 'admin', 'staff'],
  '/withdraw/requested': ['dev', 'admin', 'staff'],
  /** issue 11: staff read everybody's report, a member their own */
  '/report': ['member', 'dev', 'admin', 'staff'],
  '/blaster': ['dev', 'admin'],
  '/phonenumber': ['dev', 'admin'],
  '/phonenumber/create': ['dev', 'admin'],
  '/phonenumber/edit': ['dev', 'admin'],
  '/message': ['dev', 'admin'],
  '/message/create': ['dev', 'admin'],
  '/message/edit': ['dev', 'admin'],
  '/settings': ['dev', 'admin'],
  '/member': ['dev', 'admin'],
  '/member/edit': ['dev', 'admin'],
  '/member/whatsapp': ['dev', 'admin'],
  '/proxy': ['dev', 'admin'],
  '/proxy/create': ['dev', 'admin'],
  '/proxy/edit': ['dev', 'admin'],
  '/bonus/create': ['dev', 'admin'],
  '/level': ['dev', 'admin'],
  '/level/create': ['dev', 'admin'],
  '/level/edit': ['dev', 'admin'],
  /** issue 22: an advertiser's campaigns (their own), everybody's for admins and devs */
  '/campaigns': ['dev', 'admin', 'client'],
  '/campaigns/:id': ['dev', 'admin', 'client'],
  '/monitor/local': ['dev'],
  '/monitor/remote': ['dev'],
  '/monitor/socket': ['dev'],
  '/monitor/realtime': ['dev'],
};

/** True when `role` may open `path` (an unknown path is not a protected route). */
export function canOpen(role: Role, path: string): boolean {
  const roles = ROUTE_ROLES[path];
  return roles ? roles.includes(role) : false;
}

export interface MenuItem {
  path: string;
  label: string;
  /** lucide icon name, resolved by the web app */
  icon: string;
  external?: boolean;
  /** a submenu: the item itself is not a screen, its children are */
  children?: MenuItem[];
}

const ADMIN_MENU: MenuItem[] = [
  { path: '/', label: 'Dashboard', icon: 'layout-dashboard' },
  { path: '/phonenumber', label: 'Daftar Phone Number', icon: 'phone' },
  { path: '/member', label: 'Daftar Member', icon: 'users' },
  { path: '/generator/list', label: 'Daftar Generator', icon: 'cpu' },
  { path: '/validator/list', label: 'Daftar Validator', icon: 'shield-check' },
  { path: '/message', label: 'Template Pesan', icon: 'message-square' },
  { path: '/campaigns', label: 'Campaigns', icon: 'megaphone' },
  { path: '/withdraw/requested', label: 'Permintaan Withdraw', icon: 'banknote' },
  { path: '/report', label: 'Laporan', icon: 'chart-column' },
  { path: '/bonus', label: 'Bonus', icon: 'gift' },
  { path: '/referral', label: 'Pengguna Referal', icon: 'user-plus' },
  { path: '/level', label: 'Level', icon: 'layers' },
  { path: '/proxy', label: 'Proxy', icon: 'globe' },
  { path: '/settings', label: 'Pengaturan', icon: 'settings' },
  { path: '/profile', label: 'Profile', icon: 'user' },
];

/**
 * The dev menu: the spec gives only "the admin menu's first four items, then the rest minus the
 * phone-number extras". We read that as the admin menu plus the dev-only screens (WhatsApp list,
 * withdraw, blaster and the monitors), with no second phone-number entry.
 */
const DEV_MENU: MenuItem[] = [
  ...ADMIN_MENU.slice(0, 4),
  { path: '/whatsapp', label: 'Akun Whatsapp', icon: 'smartphone' },
  { path: '/blaster', label: 'Blaster', icon: 'send' },
  ...ADMIN_MENU.slice(4, -1),
  { path: '/withdraw', label: 'Withdraw', icon: 'wallet' },
  {
    path: '/monitor',
    label: 'Monitor',
    icon: 'activity',
    children: [
      { path: '/monitor/realtime', label: 'Realtime', icon: 'activity' },
      { path: '/monitor/local', label: 'Local', icon: 'activity' },
      { path: '/monitor/remote', label: 'Remote', icon: 'activity' },
      { path: '/monitor/socket', label: 'Socket', icon: 'activity' },
    ],
  },
  ADMIN_MENU[ADMIN_MENU.length - 1],
];

const MEMBER_MENU: MenuItem[] = [
  { path: '/', label: 'Dashboard', icon: 'layout-dashboard' },
  { path: '/whatsapp', label: 'Akun Whatsapp', icon: 'smartphone' },
  { path: '/report', label: 'Laporan', icon: 'chart-column' },
  { path: '/withdraw', label: 'Withdraw', icon: 'wallet' },
  { path: '/bonus', label: 'Bonus', icon: 'gift' },
  { path: '/referral', label: 'Pengguna Referal', icon: 'user-plus' },
  { path: '/profile', label: 'Profile', icon: 'user' },
  { path: TELEGRAM_URL, label: 'Telegram', icon: 'send', external: true },
];

const STAFF_MENU: MenuItem[] = [
  { path: '/withdraw/requested', label: 'Permintaan Withdraw', icon: 'banknote' },
  { path: '/report', label: 'Laporan', icon: 'chart-column' },
  { path: '/generator/list', label: 'Daftar Generator', icon: 'cpu' },
  { path: '/validator/list', label: 'Daftar Validator', icon: 'shield-check' },
  { path: '/profile', label: 'Profile', icon: 'user' },
];

/**
 * An advertiser (issue 22): their campaigns and their profile, where their API keys and webhooks
 * are (cards of /profile, not screens of their own).
 */
const CLIENT_MENU: MenuItem[] = [
  { path: '/campaigns', label: 'Campaigns', icon: 'megaphone' },
  { path: '/profile', label: 'Profile', icon: 'user' },
];

/** The sidebar menu of §2 for a role. */
export function menuFor(role: Role): MenuItem[] {
  switch (role) {
    case 'member':
      return MEMBER_MENU;
    case 'staff':
      return STAFF_MENU;
    case 'dev':
      return DEV_MENU;
    case 'client':
      return CLIENT_MENU;
    default:
      return ADMIN_MENU;
  }
}
