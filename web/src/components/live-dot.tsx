/** Whether the realtime socket is open: a green dot 'Live', else a gray 'Offline'. */
export function LiveDot({ connected }: { connected: boolean }) {
  return (
    <span
      className="inline-flex items-center gap-1.5 text-xs text-gray-500 dark:text-gray-400"
      data-live={connected ? 'on' : 'off'}
      title={connected ? 'Pembaruan langsung aktif' : 'Menyambungkan pembaruan langsung...'}
    >
      <span className={`h-2 w-2 rounded-full ${connected ? 'bg-green-500' : 'bg-gray-400'}`} />
      {connected ? 'Live' : 'Offline'}
    </span>
  );
}
