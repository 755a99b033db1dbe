import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';

/** A screen whose content a later issue fills: its title and breadcrumb already stand (§2). */
export function ScreenPage({ title }: { title: string }) {
  return (
    <>
      <PageBreadcrumb title={title} />
      <Card>
        <p className="text-sm text-gray-500 dark:text-gray-400">Halaman ini sedang disiapkan.</p>
      </Card>
    </>
  );
}

/** The spec's titles for the screens of the route table (§2). */
export const SCREEN_TITLES: Record<string, string> = {
  '/whatsapp/create': 'Tambah Akun Whatsapp',
  '/bonus': 'Bonus',
  '/whatsapp': 'Daftar Whatsapp',
  '/referral': 'Daftar Referal',
  '/withdraw': 'Withdraw',
  '/generator/list': 'Daftar Generator',
  '/generator/create': 'Tambah Akun Generator',
  '/validator/list': 'Daftar Validator',
  '/validator/create': 'Tambah Akun Validator',
  '/withdraw/requested': 'Permintaan Withdraw',
  '/blaster': 'Blaster',
  '/phonenumber': 'Daftar Phone Number',
  '/phonenumber/create': 'Tambah Phone Number',
  '/phonenumber/edit': 'Edit Phone Number',
  '/message': 'Template Pesan Blaster',
  '/message/create': 'Tambah Template Pesan',
  '/message/edit': 'Edit Template Pesan',
  '/settings': 'Form Pengaturan',
  '/member': 'Daftar Member',
  '/member/edit': 'Edit Member',
  '/member/whatsapp': 'Daftar Whatsapp',
  '/proxy': 'Proxy',
  '/proxy/create': 'Tambah Proxy',
  '/proxy/edit': 'Edit Proxy',
  '/bonus/create': 'Kirim Bonus',
  '/level': 'Level',
  '/level/create': 'Tambah Level',
  '/level/edit': 'Edit Level',
  '/monitor/local': 'Monitor Local',
  '/monitor/remote': 'Monitor Remote',
  '/monitor/socket': 'Monitor Socket',
  '/monitor/realtime': 'Monitor Realtime',
};

/** The placeholder of a route-table screen that has no page of its own yet, under its spec title. */
export function ScreenFor({ path }: { path: string }) {
  return <ScreenPage title={SCREEN_TITLES[path] ?? path} />;
}
