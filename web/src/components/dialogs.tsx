import { AlertTriangle, CheckCircle2, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './button';
import { Modal } from './modal';

const ICONS = {
  success: <CheckCircle2 size={48} className="text-green-500" />,
  error: <XCircle size={48} className="text-red-500" />,
  warning: <AlertTriangle size={48} className="text-yellow-500" />,
};

export interface Notice {
  tone: keyof typeof ICONS;
  title: string;
  text: string;
  button?: string;
}

/** A message with one button: 'Gagal!', 'Terkirim!' … 'Cool', 'Forbidden' (§4, §8). */
export function NoticeDialog({ notice, onClose }: { notice: Notice | null; onClose(): void }) {
  return (
    <Modal open={notice !== null} onClose={onClose} title={notice?.title ?? ''} className="max-w-md text-center">
      {notice && (
        <div className="flex flex-col items-center gap-4">
          {ICONS[notice.tone]}
          <p className="text-gray-700 dark:text-gray-300" role={notice.tone === 'error' ? 'alert' : 'status'}>
            {notice.text}
          </p>
          <Button onClick={onClose} variant={notice.tone === 'error' ? 'danger' : 'primary'}>
            {notice.button ?? 'OK'}
          </Button>
        </div>
      )}
    </Modal>
  );
}

export interface Confirmation {
  title: string;
  text: ReactNode;
  confirm: string;
  cancel: string;
  danger?: boolean;
  onConfirm(): void;
}

/** A question with a confirm and a cancel button ('Warning!', 'Sedang mengirim', 'Apakah Anda yakin ?'). */
export function ConfirmDialog({ confirmation, onClose }: { confirmation: Confirmation | null; onClose(): void }) {
  return (
    <Modal
      open={confirmation !== null}
      onClose={onClose}
      title={confirmation?.title ?? ''}
      className="max-w-md text-center"
    >
      {confirmation && (
        <div className="flex flex-col items-center gap-4">
          {ICONS.warning}
          <div className="text-gray-700 dark:text-gray-300">{confirmation.text}</div>
          <div className="flex flex-wrap justify-center gap-3">
            <Button
              variant={confirmation.danger ? 'danger' : 'primary'}
              onClick={() => {
                onClose();
                confirmation.onConfirm();
              }}
            >
              {confirmation.confirm}
            </Button>
            <Button variant="outline" onClick={onClose}>
              {confirmation.cancel}
            </Button>
          </div>
        </div>
      )}
    </Modal>
  );
}
