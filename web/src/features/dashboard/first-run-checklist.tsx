import { FIRST_RUN_STEPS, type FirstRunDto, type FirstRunStep, type Role } from '@wa/shared';
import { ChevronRight, Circle, CircleCheck } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '../../components/page-breadcrumb';

interface Step {
  title: string;
  /** what to do there; `blast` differs by role, since an admin cannot start a blast */
  hint: string | ((role: Role) => string);
  to: string;
  link: string;
}

/** The four first steps (issue 20, §2 Dashboard), each with the screen where it is taken. */
const STEPS: Record<FirstRunStep, Step> = {
  accounts: {
    title: 'Hubungkan akun WhatsApp',
    hint: 'Pindai kode QR atau masukkan kode pairing dari ponsel.',
    to: '/whatsapp/create',
    link: 'Tambah Akun',
  },
  targets: {
    title: 'Impor nomor target',
    hint: 'Unggah file .csv atau .json berisi nomor tujuan blast.',
    to: '/phonenumber/create',
    link: 'Tambah Nomor',
  },
  templates: {
    title: 'Tulis template pesan',
    hint: 'Blast mengirim template yang berstatus aktif.',
    to: '/message/create',
    link: 'Tambah Template',
  },
  messages: {
    title: 'Mulai blast',
    hint: (role) =>
      role === 'dev'
        ? "Tekan 'Start Blast' pada akun yang terhubung."
        : 'Blast dimulai oleh member (dari akunnya sendiri) atau dev, bukan admin.',
    to: '/whatsapp',
    link: 'Akun WhatsApp',
  },
};

/**
 * The admin and dev dashboard's first-run checklist: connect an account, import targets, write a
 * template, start a blast, each ticked once done (GET /admin/first-run), shown until all four are.
 */
export function FirstRunChecklist({ data, role }: { data: FirstRunDto | null | undefined; role: Role }) {
  if (!data || data.done) return null;
  const taken = FIRST_RUN_STEPS.filter((step) => data[step] > 0).length;
  return (
    <Card>
      <section data-testid="first-run" aria-labelledby="first-run-title">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="first-run-title" className="text-lg font-semibold text-gray-800 dark:text-white/90">
            Langkah pertama
          </h3>
          <span className="text-sm text-gray-500 dark:text-gray-400" data-testid="first-run-progress">
            {taken} dari {FIRST_RUN_STEPS.length} selesai
          </span>
        </div>
        <ol className="mt-4 divide-y divide-gray-100 dark:divide-gray-800">
          {FIRST_RUN_STEPS.map((key) => {
            const step = STEPS[key];
            const done = data[key] > 0;
            return (
              <li
                key={key}
                className="flex flex-wrap items-center gap-3 py-3 sm:flex-nowrap"
                data-testid={`first-run-${key}`}
                data-done={done}
              >
                {done ? (
                  <CircleCheck size={22} className="shrink-0 text-green-600 dark:text-green-500" aria-label="Selesai" />
                ) : (
                  <Circle size={22} className="shrink-0 text-gray-300 dark:text-gray-600" aria-label="Belum" />
                )}
                <div className="min-w-0 flex-1">
                  <p
                    className={`text-sm font-medium ${done ? 'text-gray-500 line-through dark:text-gray-400' : 'text-gray-800 dark:text-white/90'}`}
                  >
                    {step.title}
                  </p>
                  <p className="text-sm text-gray-500 dark:text-gray-400">
                    {typeof step.hint === 'string' ? step.hint : step.hint(role)}
                  </p>
                </div>
                <Link
                  to={step.to}
                  className="inline-flex shrink-0 items-center gap-1 text-sm font-medium text-brand-500 hover:text-brand-600 dark:text-brand-400"
                >
                  {step.link}
                  <ChevronRight size={16} aria-hidden="true" />
                </Link>
              </li>
            );
          })}
        </ol>
      </section>
    </Card>
  );
}
