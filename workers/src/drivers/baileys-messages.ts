import type { WAMessage } from '@whiskeysockets/baileys';

/** A message to the account, as the engine hears it: the sender's number, the text, the button pressed. */
export interface Incoming {
  from: string;
  text: string;
  buttonId?: string;
}

/**
 * A message someone sent to this account, from Baileys' `messages.upsert`: only people (not
 * groups, broadcasts or channels), not our own. The sender's number comes from the chat's phone
 * jid, or from its alternative when WhatsApp addresses the chat by its LID (Baileys 7).
 */
export function incomingOf(message: WAMessage): Incoming | null {
  const { key } = message;
  if (!key || key.fromMe) return null;
  const from = phoneOf(key.remoteJid) ?? phoneOf(key.remoteJidAlt);
  if (!from || !message.message) return null;
  const m = message.message;
  const buttonId =
    m.buttonsResponseMessage?.selectedButtonId ??
    m.templateButtonReplyMessage?.selectedId ??
    m.listResponseMessage?.singleSelectReply?.selectedRowId ??
    nativeFlowId(m.interactiveResponseMessage?.nativeFlowResponseMessage?.paramsJson) ??
    undefined;
  const text =
    m.conversation ??
    m.extendedTextMessage?.text ??
    m.buttonsResponseMessage?.selectedDisplayText ??
    m.templateButtonReplyMessage?.selectedDisplayText ??
    m.interactiveResponseMessage?.body?.text ??
    m.imageMessage?.caption ??
    m.videoMessage?.caption ??
    '';
  return { from, text: text ?? '', ...(buttonId ? { buttonId } : {}) };
}

/** `6281…@s.whatsapp.net` (or with a device suffix) → `6281…`; anything else → null. */
function phoneOf(jid: string | null | undefined): string | null {
  if (!jid?.endsWith('@s.whatsapp.net')) return null;
  const user = jid.slice(0, -'@s.whatsapp.net'.length).split(':')[0] ?? '';
  return /^\d+$/.test(user) ? user : null;
}

/** A native-flow (interactive) button reply carries its id in a JSON string. */
function nativeFlowId(paramsJson: string | null | undefined): string | undefined {
  if (!paramsJson) return undefined;
  try {
    const id = (JSON.parse(paramsJson) as { id?: unknown }).id;
    return typeof id === 'string' && id ? id : undefined;
  } catch {
    return undefined;
  }
}
