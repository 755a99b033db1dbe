import { Loader2, QrCode, Smartphone, TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField, inputClass } from '../../components/form-field';
import { LiveDot } from '../../components/live-dot';
import { Card } from '../../components/page-breadcrumb';
import type { WhatsappLogin } from './use-whatsapp-login';
import { ENGINE_CHOICES, type EngineChoice, engineChoice, formatPairingCode, type Mode } from './whatsapp-login';

const toggleClass = (on: boolean) =>
  `flex flex-1 items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium transition ${
    on
      ? 'bg-white text-gray-900 shadow-xs dark:bg-gray-800 dark:text-white'
      : 'text-gray-500 hover:text-gray-900 dark:text-gray-400 dark:hover:text-white'
  }`;

/** The 'Metode Login' toggle: QR code or phone number (pairing code), fixed while a login runs. */
function ModeToggle({ mode, busy, onChange }: { mode: Mode; busy: boolean; onChange(mode: Mode): void }) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">Metode Login</legend>
      <div className="flex gap-1 rounded-lg bg-gray-100 p-1 dark:bg-gray-900">
        <button
          type="button"
          aria-pressed={mode === 'qr'}
          disabled={busy}
          onClick={() => onChange('qr')}
          className={toggleClass(mode === 'qr')}
        >
          <QrCode size={16} /> QR Code
        </button>
        <button
          type="button"
          aria-pressed={mode === 'code'}
          disabled={busy}
          onClick={() => onChange('code')}
          className={toggleClass(mode === 'code')}
        >
          <Smartphone size={16} /> Nomor Telepon
        </button>
      </div>
    </fieldset>
  );
}

/** 'Mesin' (admin and dev): the engine the new login runs on, fixed while a login runs. */
function EngineSelect({
  engine,
  busy,
  onChange,
}: {
  engine: EngineChoice;
  busy: boolean;
  onChange(engine: EngineChoice): void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
        Mesin
      </label>
      <select
        id={id}
        name="engine"
        className={inputClass}
        value={engine}
        disabled={busy}
        onChange={(e) => onChange(engineChoice(e.target.value))}
      >
        {ENGINE_CHOICES.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The code being shown (QR image or pairing code), how to use it, and its countdown (§2). */
function Challenge({
  mode,
  qrImage,
  code,
  seconds,
}: {
  mode: Mode;
  qrImage: string | null;
  code: string | null;
  seconds: number;
}) {
  return (
    <div className="flex flex-col items-center gap-3 text-center">
      {qrImage && mode === 'qr' && (
        <>
          <img
            src={qrImage}
            alt="QR Code"
            width={264}
            height={264}
            className="h-auto w-full max-w-[264px] rounded-lg border border-gray-200 bg-white p-2 dark:border-gray-700"
          />
          <p className="max-w-sm text-sm text-gray-600 dark:text-gray-400">
            Buka WhatsApp di ponsel, pilih Perangkat tertaut, lalu Tautkan perangkat dan pindai QR code ini.
          </p>
        </>
      )}
      {code && mode === 'code' && (
        <>
          <p
            className="font-mono text-3xl font-semibold tracking-[0.2em] text-gray-800 sm:text-4xl dark:text-white/90"
            data-testid="pairing-code"
          >
            {formatPairingCode(code)}
          </p>
          <p className="max-w-sm text-sm text-gray-600 dark:text-gray-400">
            Buka WhatsApp di ponsel, pilih Perangkat tertaut, Tautkan perangkat, lalu Tautkan dengan nomor telepon dan
            masukkan kode ini.
          </p>
        </>
      )}
      <p className="text-sm text-gray-700 dark:text-gray-300" data-testid="countdown">
        Berlaku <span className="font-semibold">{seconds}</span> detik lagi
      </p>
    </div>
  );
}

/** The 'Login Whatsapp' card of /whatsapp/create (§2): the form, then the code and its countdown. */
export function LoginCard({ login }: { login: WhatsappLogin }) {
  const { state, connected } = login;
  const { mode, phase, previous } = state;
  const busy = phase !== 'idle';
  return (
    <Card className="max-w-3xl">
      <div className="mb-4 flex items-center justify-between gap-3">
        <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90">Login Whatsapp</h3>
        <LiveDot connected={connected} />
      </div>
      {previous && (
        <div className="mb-4">
          <Alert tone="info">
            Menyambungkan ulang {previous.pushname || 'Whatsapp'} ({previous.phonenumber || previous.clientid})
          </Alert>
        </div>
      )}
      {state.error && (
        <div className="mb-4">
          <Alert tone="error">{state.error}</Alert>
        </div>
      )}
      <form onSubmit={login.generate} noValidate className="space-y-4">
        <FormField label="Whatsapp ID" name="deviceId" value={state.deviceId} readOnly />
        {login.chooseEngine ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <ModeToggle mode={mode} busy={busy} onChange={login.setMode} />
            <EngineSelect engine={state.engine} busy={busy} onChange={login.setEngine} />
          </div>
        ) : (
          <ModeToggle mode={mode} busy={busy} onChange={login.setMode} />
        )}
        {mode === 'code' && (
          <FormField
            label="Nomor Telepon"
            name="phoneNumber"
            inputMode="numeric"
            autoComplete="tel"
            placeholder="6281xxxxxxx"
            value={state.phone}
            disabled={busy}
            onChange={(e) => login.setPhone(e.target.value)}
            error={state.phoneError}
            hint="Nomor harus diawali 62."
          />
        )}

        {phase === 'idle' && (
          <>
            {state.expired && (
              <Alert tone="info">
                {mode === 'qr' ? 'QR code' : 'Kode pairing'} sudah kedaluwarsa. Silahkan generate ulang.
              </Alert>
            )}
            <Button type="submit" className="w-full sm:w-auto">
              {mode === 'qr' ? 'Generate QR Code' : 'Generate Pairing Code'}
            </Button>
          </>
        )}
      </form>

      {busy && (
        <div className="mt-6 space-y-4">
          <div className="flex items-start gap-2 rounded-xl border border-yellow-400 bg-yellow-50 p-3 text-sm text-yellow-800 dark:border-yellow-500/30 dark:bg-yellow-500/15 dark:text-yellow-300">
            <TriangleAlert size={18} className="mt-0.5 shrink-0" />
            Jangan tutup atau muat ulang halaman ini sampai proses selesai.
          </div>
          {phase === 'generating' && (
            <p className="flex items-center gap-2 text-sm text-gray-600 dark:text-gray-300" data-testid="generating">
              <Loader2 size={16} className="animate-spin" /> Generating...{' '}
              {state.seconds > 0 ? `(${state.seconds}s)` : ''}
            </p>
          )}
          {phase === 'showing' && (
            <Challenge
              mode={state.login?.mode ?? mode}
              qrImage={state.qrImage}
              code={state.code}
              seconds={state.seconds}
            />
          )}
          {phase === 'saving' && (
            <p className="flex items-center gap-2 text-sm text-gray-600 dark:text-gray-300">
              <Loader2 size={16} className="animate-spin" /> Menyimpan...
            </p>
          )}
          {phase !== 'saving' && (
            <Button variant="outline" size="sm" onClick={login.cancel}>
              Batal
            </Button>
          )}
        </div>
      )}
    </Card>
  );
}
