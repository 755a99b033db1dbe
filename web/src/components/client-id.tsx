/** An account's client id; for dev a link that opens its live events in /monitor/realtime in a new tab (§2 Monitor). */
export function ClientId({ clientid, monitor }: { clientid: string; monitor: boolean }) {
  return monitor ? (
    <a
      href={`/monitor/realtime?id=${encodeURIComponent(clientid)}`}
      target="_blank"
      rel="noreferrer"
      className="font-mono text-xs whitespace-nowrap text-brand-500 hover:underline"
    >
      {clientid}
    </a>
  ) : (
    <span className="font-mono text-xs whitespace-nowrap">{clientid}</span>
  );
}
