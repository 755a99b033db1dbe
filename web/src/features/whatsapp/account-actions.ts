import { errorText } from '../../api/client';
import type { Confirmation, Notice } from '../../components/dialogs';
import { whatsappApi } from './api';
import { type AccountRow, isCutOff } from './live-rows';

/** What the row actions show: an error above the table, a notice, a question. */
export interface AccountActionsUi {
  patch(id: number, patch: Partial<AccountRow>): void;
  setError(error: string | null): void;
  setNotice(notice: { notice: Notice; after?: () => void }): void;
  setConfirmation(confirmation: Confirmation): void;
  /** /whatsapp/create?r= for an account that must log in again */
  reconnectPage(row: AccountRow): void;
  /** the socket client id the worker answers a blast on (§7) */
  socketClientId: string;
}

/**
 * The row actions of the account list (§4): start and stop blast, reconnect, reset and activate,
 * each with its transient row flag, its question or notice, and the server's refusal as the error.
 */
export function accountActions(ui: AccountActionsUi) {
  const { patch, setError } = ui;

  const runBlast = async (row: AccountRow, action: 'start' | 'stop', startAt?: string) => {
    setError(null);
    patch(row.id, { requesting: action, blastFailed: false });
    try {
      await whatsappApi.blast(action, {
        whatsappClientId: row.clientid,
        socketClientId: ui.socketClientId,
        loop: true,
        ...(startAt ? { start_at: startAt } : {}),
      });
      // the row keeps 'Starting...'/'Stopping...' until the worker's event arrives (§4)
    } catch (err) {
      patch(row.id, { requesting: null, blastFailed: true });
      setError(`${errorText(err)}! Silahkan coba lagi.`);
    }
  };

  const blast = (row: AccountRow, action: 'start' | 'stop') => {
    if (isCutOff(row.state)) {
      ui.setNotice({
        notice: { tone: 'error', title: 'Forbidden', text: 'Sambungan terputus, silahkan sambungkan ulang!' },
        after: () => ui.reconnectPage(row),
      });
      return;
    }
    if (action === 'stop' && row.status === 'sending') {
      ui.setConfirmation({
        title: 'Sedang mengirim',
        text: `Whatsapp ${row.phonenumber ?? row.clientid} sedang mengirim pesan blaster.`,
        confirm: 'Stop Blast!',
        cancel: 'Tunggu Aja',
        danger: true,
        onConfirm: () => void runBlast(row, 'stop'),
      });
      return;
    }
    void runBlast(row, action);
  };

  const reconnect = (row: AccountRow) => {
    ui.setConfirmation({
      title: 'Warning!',
      text:
        row.state === 'conflict'
          ? `Whatsapp ${row.phonenumber ?? row.clientid} dibuka di tempat lain. Sambungkan ulang di sini?`
          : `Whatsapp ${row.phonenumber ?? row.clientid} harus login ulang dengan QR code atau kode pairing.`,
      confirm: 'Ya, Reonnect.',
      cancel: 'Batal',
      onConfirm: async () => {
        if (row.state !== 'conflict') {
          ui.reconnectPage(row);
          return;
        }
        // §4: a conflict reconnects in place
        setError(null);
        patch(row.id, { state: 'reconnecting...' });
        try {
          await whatsappApi.reconnect(row.id);
        } catch (err) {
          patch(row.id, { state: row.state });
          setError(errorText(err));
        }
      },
    });
  };

  const reset = (row: AccountRow) => {
    ui.setConfirmation({
      title: 'Apakah Anda yakin ?',
      text: 'Jumlah pesan berhasil, gagal dan pendapatan Whatsapp ini akan direset ke 0. Total pendapatan Anda tidak ikut direset.',
      confirm: 'Ya, Reset.',
      cancel: 'Batal',
      danger: true,
      onConfirm: async () => {
        setError(null);
        patch(row.id, { resetting: true });
        try {
          const { data } = await whatsappApi.reset(row.id);
          patch(row.id, {
            resetting: false,
            count_success: data.count_success,
            count_fail: data.count_fail,
            income: data.income,
          });
        } catch (err) {
          patch(row.id, { resetting: false });
          setError(errorText(err));
        }
      },
    });
  };

  const activate = async (row: AccountRow) => {
    setError(null);
    patch(row.id, { activating: true });
    try {
      const { data } = await whatsappApi.activate(row.id);
      patch(row.id, { activating: false, suspended: data.suspended, state: data.state });
    } catch (err) {
      patch(row.id, { activating: false });
      setError(errorText(err));
    }
  };

  const liftPause = async (row: AccountRow) => {
    setError(null);
    try {
      const { data } = await whatsappApi.liftPause(row.id);
      patch(row.id, { paused_until: data.paused_until, pause_reason: data.pause_reason });
    } catch (err) {
      setError(errorText(err));
    }
  };

  /** Start Blast at a later time (account safety: a member may schedule the start). */
  const schedule = (row: AccountRow, startAt: Date) => runBlast(row, 'start', startAt.toISOString());

  return { blast, reconnect, reset, activate, liftPause, schedule };
}

export type AccountActions = ReturnType<typeof accountActions>;
