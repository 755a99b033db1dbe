const FLASH = {
  success: 'bg-green-100 font-semibold text-green-700 dark:bg-green-500/20 dark:text-green-400',
  fail: 'bg-red-100 font-semibold text-red-700 dark:bg-red-500/20 dark:text-red-400',
};

/** A live count (Berhasil, Gagal): green or red for the 1 s after it changed (§4). */
export function FlashCount({
  value,
  flash,
  tone,
  testId,
}: {
  value: number;
  flash: boolean;
  tone: keyof typeof FLASH;
  testId: string;
}) {
  return (
    <span data-testid={testId} className={`rounded px-1.5 py-0.5 transition-colors ${flash ? FLASH[tone] : ''}`}>
      {value}
    </span>
  );
}
