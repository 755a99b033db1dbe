import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { monitorApi } from './api';
import { type ViewType, viewTypeOf } from './json-ranges';
import { JsonView } from './json-view';
import { IdForm, Spinner, ViewTypeSwitch } from './monitor-controls';
import { SimControls } from './sim-controls';

export type MonitorKind = 'local' | 'remote' | 'socket';

const SCREENS: Record<
  MonitorKind,
  { title: string; idLabel?: string; placeholder?: string; hint: string; load(id: string): Promise<{ data: unknown }> }
> = {
  local: {
    title: 'Monitor Local',
    hint: 'Proses API ini: uptime, memori, sesi WhatsApp yang dipegangnya, socket dan bus.',
    load: () => monitorApi.local(),
  },
  remote: {
    title: 'Monitor Remote',
    idLabel: 'Client ID',
    placeholder: 'id-1700000000000-1234',
    hint: 'Akun WhatsApp dan jawaban worker yang memegang sesinya.',
    load: (id) => monitorApi.remote(id),
  },
  socket: {
    title: 'Monitor Socket',
    idLabel: 'User ID',
    placeholder: '1',
    hint: 'Socket realtime milik user ini di proses API ini.',
    load: (id) => monitorApi.socket(id),
  },
};

/**
 * /monitor/local, /monitor/remote?id={clientid} and /monitor/socket?id={userId} (§2 Monitor, dev
 * only): the data of §7 Dev monitor in the view ?type= chooses, with a spinner while it loads.
 */
export function MonitorPage({ kind }: { kind: MonitorKind }) {
  const screen = SCREENS[kind];
  const [params, setParams] = useSearchParams();
  const id = (params.get('id') ?? '').trim();
  const type = viewTypeOf(params.get('type'));
  const needsId = kind !== 'local';
  const [state, setState] = useState<{ loading: boolean; data: unknown; error: string | null }>({
    loading: false,
    data: undefined,
    error: null,
  });
  const [tick, setTick] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: tick asks for a reload
  useEffect(() => {
    if (needsId && !id) {
      setState({ loading: false, data: undefined, error: null });
      return;
    }
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    screen
      .load(id)
      .then((res) => live && setState({ loading: false, data: res.data, error: null }))
      .catch(
        (err) =>
          live &&
          setState({
            loading: false,
            data: undefined,
            error: errorText(err, 'Internal server error'),
          }),
      );
    return () => {
      live = false;
    };
  }, [kind, id, tick]);

  const setParam = (key: 'id' | 'type', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next);
  };

  return (
    <>
      <PageBreadcrumb title={screen.title} />
      <Card>
        <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
          {needsId ? (
            <IdForm
              label={screen.idLabel ?? 'ID'}
              placeholder={screen.placeholder ?? ''}
              value={id}
              onSubmit={(v) => setParam('id', v)}
            />
          ) : (
            <p className="text-sm text-gray-500 dark:text-gray-400">{screen.hint}</p>
          )}
          <div className="flex flex-wrap items-center gap-2">
            {/* the BullMQ dashboard (read-only; with Redis only): a page of its own, opened with the session cookie */}
            <a
              href="/api/dev/queues/"
              target="_blank"
              rel="noreferrer"
              className="text-sm font-medium text-brand-500 hover:underline dark:text-brand-400"
            >
              Antrean job
            </a>
            <ViewTypeSwitch value={type} onChange={(t: ViewType) => setParam('type', t)} />
            <Button
              variant="outline"
              size="sm"
              onClick={() => setTick((t) => t + 1)}
              disabled={state.loading || (needsId && !id)}
              aria-label="Muat ulang"
            >
              <RefreshCw size={14} className={state.loading ? 'animate-spin' : ''} />
              <span className="hidden sm:inline">Muat ulang</span>
            </Button>
          </div>
        </div>
        {needsId && <p className="mb-4 text-sm text-gray-500 dark:text-gray-400">{screen.hint}</p>}
        {kind === 'remote' && id && <SimControls deviceId={id} onDone={() => setTick((t) => t + 1)} />}
        {state.error && (
          <div className="mb-4">
            <Alert tone="error">{state.error}</Alert>
          </div>
        )}
        {state.loading ? (
          <Spinner />
        ) : needsId && !id ? (
          <p className="text-sm text-gray-500 dark:text-gray-400">Isi {screen.idLabel} lalu tekan Buka.</p>
        ) : state.data !== undefined ? (
          <JsonView value={state.data} type={type} />
        ) : null}
      </Card>
    </>
  );
}
