import type { ProxyDto } from '@wa/shared';
import { Badge } from '../../components/badge';
import type { Column } from '../../components/data-table';
import { PROXY_CHECK_TEXTS, proxyCheckView } from './proxy-check';

/** The Cek cell: the last health check of a proxy (see proxyCheckView). */
export function ProxyCheckCell({ proxy }: { proxy: ProxyDto }) {
  const v = proxyCheckView(proxy);
  if (v.kind === 'never') {
    return <span className="text-xs whitespace-nowrap text-gray-400 dark:text-gray-500">{v.text}</span>;
  }
  return (
    <div data-testid="proxy-check" className="flex flex-col items-start gap-1">
      <span title={v.title}>
        <Badge tone={v.tone}>{v.text}</Badge>
      </span>
      {v.kind === 'failed' && (
        <span title={v.reasonTitle} className="max-w-56 truncate text-xs text-red-600 dark:text-red-400">
          {v.reason}
        </span>
      )}
    </div>
  );
}

export const checkColumn = (): Column<ProxyDto> => ({
  header: PROXY_CHECK_TEXTS.header,
  cell: (r) => <ProxyCheckCell proxy={r} />,
});
