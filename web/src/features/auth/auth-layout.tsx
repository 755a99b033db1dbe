import { MessageCircle } from 'lucide-react';
import type { ReactNode } from 'react';

/** The public pages' frame: the form on the left, the brand panel with the tagline on the right. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="relative flex min-h-screen w-full bg-white dark:bg-gray-900">
      <div className="flex w-full flex-1 flex-col lg:w-1/2">
        <div className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-5 py-10">{children}</div>
      </div>
      <div className="relative hidden w-1/2 items-center justify-center overflow-hidden bg-brand-950 lg:flex">
        <div className="absolute inset-0 bg-[radial-gradient(circle_at_30%_20%,rgba(70,95,255,0.55),transparent_55%),radial-gradient(circle_at_80%_90%,rgba(16,185,129,0.35),transparent_50%)]" />
        <div className="relative z-10 flex max-w-xs flex-col items-center text-center">
          <div className="mb-6 flex h-16 w-16 items-center justify-center rounded-2xl bg-white/10 text-white ring-1 ring-white/20">
            <MessageCircle size={32} />
          </div>
          <h1 className="mb-2 text-3xl font-semibold text-white">WA Blaster</h1>
          <p className="text-gray-300" data-testid="tagline">
            Whatsapp Blaster for Rent
          </p>
        </div>
      </div>
    </div>
  );
}
