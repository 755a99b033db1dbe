import { randomUUID } from 'node:crypto';
import type { Actor } from '@wa/core/actor';
import { AppError, badRequest, conflict, notFound } from '@wa/core/errors';
import { SEND_MESSAGE_JOB, type SendMessageJob } from '@wa/core/jobs/names';
import type { JobQueue } from '@wa/core/jobs/queue';
import { assertCan, can, canForAnyone } from '@wa/core/policy';
import {
  ALL_RECEIVERS,
  normalizePhone,
  SEND_CAPS,
  SEND_TEXTS,
  type SendMessageResult,
  type sendMessageBody,
} from '@wa/shared';
import type { z } from 'zod';
import type { PhoneNumbersRepo } from '../phone-numbers/phone-numbers.repo';
import type { Transaction } from '../transaction';
import type { WhatsappRepo } from './whatsapp.repo';

export type SendMessageInput = z.output<typeof sendMessageBody>;

/** What a one-off send needs of the accounts (WhatsappRepo; in memory in a unit test). */
export type SendsStore = Pick<WhatsappRepo, 'byPhone' | 'activeTargets' | 'stopSend'>;
/** What it needs inside its transaction: the account's lock, its backlog and the new send. */
export type SendsTxStore = Pick<WhatsappRepo, 'lockAccount' | 'unsentReceivers' | 'insertSend'>;
/** The active target numbers least recently sent, for 'All' (PhoneNumbersRepo). */
export type TargetReceivers = Pick<PhoneNumbersRepo, 'receivers'>;

/** how many refused numbers a refusal names before it says "and N more" */
const NAMED = 5;

/**
 * POST send-message/1, the blaster form (§2, §8): one message from a connected account to a list
 * of receivers. The answer comes once the sends are queued as one job; the account's holder sends
 * them one by one, `interval` seconds apart, and reports them live. A member may only message the
 * active target numbers (at most SEND_CAPS.member at once, 'All' being the least recently sent of
 * them: a blast reaches the rest); admin and dev any numbers, up to SEND_CAPS of theirs.
 */
export class OneOffSends {
  /** `transaction` binds a SendsTxStore to one database transaction (the account's lock lives as long). */
  constructor(
    private readonly repo: SendsStore,
    private readonly phones: TargetReceivers,
    private readonly queue: JobQueue,
    private readonly transaction: Transaction<SendsTxStore>,
  ) {}

  /** From one of the actor's own accounts (`account.send`; admin and dev from anyone's). */
  async send(actor: Actor, b: SendMessageInput): Promise<SendMessageResult> {
    assertCan(actor, 'account.send');
    const senderNumber = normalizePhone(b.senders) ?? b.senders;
    const sender = await this.repo.byPhone(senderNumber, canForAnyone(actor, 'account.send') ? undefined : actor.id);
    if (!sender) throw notFound(`${b.senders} is not one of your WhatsApp accounts`);
    const name = sender.phonenumber ?? b.senders;
    // §8: a sender that is not connected is refused before anything is queued
    if (sender.state !== 'connected') throw badRequest(`${name} is ${sender.state ?? 'unknown'}`);
    // a blast paces this account already; a second stream beside it would double its rate
    if (sender.status === 'sending') throw conflict('Sedang mengirim');
    const receivers = await this.receiversFor(actor, b.targets);
    const cap = SEND_CAPS[actor.role];
    const sendId = `send-${randomUUID()}`;
    await this.transaction(async (repo) => {
      // one request at a time per account sees its backlog, so the cap holds under a burst
      await repo.lockAccount(sender.id);
      const waiting = await repo.unsentReceivers(sender.id);
      if (waiting > 0 && waiting + receivers.length > cap) throw new AppError(429, SEND_TEXTS.backlog(name, waiting));
      await repo.insertSend({
        id: sendId,
        accountId: sender.id,
        requestedBy: actor.id,
        message: b.message,
        receivers,
      });
    });
    const job: SendMessageJob = {
      sendId,
      accountId: sender.id,
      receivers,
      message: b.message,
      requestedBy: actor.id,
    };
    try {
      await this.queue.add(SEND_MESSAGE_JOB, job, { jobId: sendId });
    } catch (err) {
      await this.repo.stopSend(sendId);
      throw err;
    }
    return { msg: SEND_TEXTS.queued, jobId: sendId, count: receivers.length };
  }

  /**
   * The receivers the actor may send to, in order and without repeats: the numbers as typed, then
   * for 'All' the active target numbers least recently sent, up to the role's cap. Only those who
   * may send to any number (`account.send-any-number`) go past the active target numbers.
   */
  private async receiversFor(actor: Actor, targets: string): Promise<string[]> {
    const anyNumber = can(actor, 'account.send-any-number');
    const tokens = targets.split(/[\s,;]+/).filter(Boolean);
    const all = tokens.some((t) => t.toLowerCase() === ALL_RECEIVERS.toLowerCase());
    const typed = tokens.filter((t) => t.toLowerCase() !== ALL_RECEIVERS.toLowerCase());
    const bad = typed.filter((t) => !normalizePhone(t));
    if (bad.length) throw badRequest(`Not a phone number: ${bad.slice(0, NAMED).join(', ')}.`);
    const numbers = [...new Set(typed.map((t) => normalizePhone(t) as string))];
    const cap = SEND_CAPS[actor.role];
    if (numbers.length > cap) {
      throw badRequest(anyNumber ? SEND_TEXTS.cap(cap) : SEND_TEXTS.memberCap(cap));
    }
    if (!anyNumber) {
      const active = await this.repo.activeTargets(numbers);
      const outside = numbers.filter((n) => !active.has(n));
      if (outside.length) {
        throw badRequest(SEND_TEXTS.notTargets(outside.slice(0, NAMED), Math.max(0, outside.length - NAMED)));
      }
    }
    if (all && numbers.length < cap) {
      const have = new Set(numbers);
      const more = await this.phones.receivers({ limit: cap });
      for (const r of more) {
        if (numbers.length >= cap) break;
        if (!have.has(r.number)) numbers.push(r.number);
      }
      if (!numbers.length) throw badRequest('There are no active target numbers to send to.');
    }
    if (!numbers.length) throw badRequest('Receivers are required.');
    return numbers;
  }
}
