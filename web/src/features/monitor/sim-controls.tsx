import { SIM, SIM_ACK_KINDS, type SimCommand } from '@wa/shared';
import { useState } from 'react';
import { errorText, request } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { inputClass } from '../../components/form-field';

/** POST /api/dev/sim/{deviceId}: something happens on the simulated WhatsApp's side. */
const simulate = (deviceId: string, command: SimCommand) =>
  request(SIM.simulate, { params: { deviceId }, body: command, fallback: 'Error driving the simulator' });

const ACTIONS: { label: string; command: SimCommand }[] = [
  { label: 'Hapus pesan terakhir', command: { action: 'revoke' } },
  { label: 'Gagal kirim 5x', command: { action: 'fail', count: 5, kind: 'generic' } },
  { label: 'Rate limit', command: { action: 'fail', count: 1, kind: 'rate-limit' } },
  { label: 'Ban sementara', command: { action: 'ban' } },
  { label: 'Putus', command: { action: 'disconnect' } },
  { label: 'Sambung', command: { action: 'reconnect' } },
  { label: 'Conflict', command: { action: 'conflict' } },
  { label: 'Logout', command: { action: 'logout' } },
];

type AckKind = (typeof SIM_ACK_KINDS)[number];
const ACK_LABELS: Record<AckKind, string> = { delivered: 'Terkirim', read: 'Dibaca', failed: 'Gagal' };

const fieldLabel = 'flex flex-col gap-1 text-xs text-gray-600 dark:text-gray-400';

/**
 * The dev monitor's simulator controls for one account (WA_DRIVER=sim only): delete the last
 * blast message, make sends fail, ban, drop the connection, have a target reply, or send a
 * message's receipt (delivered, read, failed), so each account-safety and payout rule can be
 * watched acting on the account's row.
 */
export function SimControls({ deviceId, onDone }: { deviceId: string; onDone(): void }) {
  const [from, setFrom] = useState('');
  const [text, setText] = useState('STOP');
  const [messageId, setMessageId] = useState('');
  const [ack, setAck] = useState<AckKind>('delivered');
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const run = async (label: string, command: SimCommand) => {
    setResult(null);
    try {
      const { data } = await simulate(deviceId, command);
      setResult({ tone: 'success', text: `${label}: ok${data.messageId ? ` (${data.messageId})` : ''}` });
      onDone();
    } catch (err) {
      setResult({ tone: 'error', text: errorText(err) });
    }
  };
  return (
    <section
      aria-label="Simulator"
      className="mb-4 rounded-xl border border-dashed border-gray-300 p-4 dark:border-gray-700"
    >
      <h3 className="mb-1 text-sm font-semibold text-gray-800 dark:text-white/90">Simulator</h3>
      <p className="mb-3 text-xs text-gray-500 dark:text-gray-400">
        Hanya dengan WA_DRIVER=sim: kejadian di sisi WhatsApp untuk akun ini.
      </p>
      <div className="mb-3 flex flex-wrap gap-2">
        {ACTIONS.map((a) => (
          <Button key={a.label} size="sm" variant="outline" onClick={() => void run(a.label, a.command)}>
            {a.label}
          </Button>
        ))}
      </div>
      <form
        className="mb-3 flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void run(`Tanda ${ACK_LABELS[ack]}`, { action: 'ack', messageId: messageId.trim(), ack });
        }}
      >
        <label className={fieldLabel}>
          ID pesan WhatsApp
          <input
            name="messageId"
            value={messageId}
            onChange={(e) => setMessageId(e.target.value)}
            placeholder="wa_message_id"
            className={inputClass}
          />
        </label>
        <label className={fieldLabel}>
          Tanda terima
          <select
            name="ack"
            value={ack}
            onChange={(e) => setAck(SIM_ACK_KINDS.find((k) => k === e.target.value) ?? 'delivered')}
            className={inputClass}
          >
            {SIM_ACK_KINDS.map((k) => (
              <option key={k} value={k}>
                {ACK_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" size="sm" disabled={!messageId.trim()}>
          Kirim tanda terima
        </Button>
      </form>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void run('Balasan', { action: 'reply', from, text });
        }}
      >
        <label className={fieldLabel}>
          Balasan dari nomor
          <input
            name="from"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            placeholder="6281xxxxxxx"
            className={inputClass}
          />
        </label>
        <label className={fieldLabel}>
          Teks
          <input name="text" value={text} onChange={(e) => setText(e.target.value)} className={inputClass} />
        </label>
        <Button type="submit" size="sm" disabled={!from}>
          Kirim balasan
        </Button>
      </form>
      {result && (
        <div className="mt-3">
          <Alert tone={result.tone}>{result.text}</Alert>
        </div>
      )}
    </section>
  );
}
