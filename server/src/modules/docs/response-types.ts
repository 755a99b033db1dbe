import type {
  apiKeyList,
  blastResponse,
  ChartsResponse,
  CreatedApiKey,
  CreatedWebhook,
  clientStateResponse,
  deletedPhoneNumber,
  deletedWebhook,
  healthResponse,
  IncomeResponse,
  MessageLogCount,
  MessageLogItem,
  newClientResponse,
  Paged,
  PhoneBlastCount,
  phoneNumberPage,
  phoneNumberResponse,
  qrResponse,
  ReportResponse,
  removeClientResponse,
  resentDelivery,
  revokedApiKey,
  SuccessFailCount,
  savedPhoneNumber,
  WebhookDto,
  WhatsappCount,
  webhookDeliveryList,
  webhookList,
  whatsappList,
  whatsappPage,
  whatsappResponse,
} from '@wa/shared';
import type { z } from 'zod';
import type { ApiKeysService } from '../apikeys/apikeys.service';
import type { HealthService } from '../health/health.service';
import type { MessageLogService } from '../messagelog/messagelog.service';
import type { PhoneNumbersService } from '../phone-numbers/phone-numbers.service';
import type { ReportService } from '../report/report.service';
import type { WebhooksService } from '../webhooks/webhooks.service';
import type { WhatsappService } from '../whatsapp/whatsapp.service';
import type { WhatsappLogins } from '../whatsapp/whatsapp-login.service';

/**
 * The compiler's half of the response schemas' check (openapi-responses.test.ts is the runtime
 * half): what each documented service method returns must be exactly what its schema in
 * shared/src/contract infers, so a service that changes its answer fails `npm run check` until the
 * schema, and with it the OpenAPI document, says the same. Where the route wraps the answer
 * (`{data: …}`, `{whatsapp: …}`, `ok`), the check is of the part the service gives.
 */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Same<A extends true> = A;
type Answer<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type Out<S extends z.ZodType> = z.infer<S>;

export type ResponseTypesMatch = [
  Same<Equal<Answer<ApiKeysService['create']>, CreatedApiKey>>,
  Same<Equal<Answer<ApiKeysService['list']>, Out<typeof apiKeyList>['data']>>,
  Same<Equal<Answer<ApiKeysService['revoke']>, Out<typeof revokedApiKey>>>,
  Same<Equal<Answer<WebhooksService['create']>, CreatedWebhook>>,
  Same<Equal<Answer<WebhooksService['list']>, Out<typeof webhookList>['data']>>,
  Same<Equal<Answer<WebhooksService['update']>, WebhookDto>>,
  Same<Equal<Answer<WebhooksService['remove']>, Out<typeof deletedWebhook>>>,
  Same<Equal<Answer<WebhooksService['deliveries']>, Out<typeof webhookDeliveryList>['data']>>,
  Same<Equal<Answer<WebhooksService['resend']>, Out<typeof resentDelivery>>>,
  Same<Equal<Answer<WhatsappLogins['newClient']>, Out<typeof newClientResponse>>>,
  Same<Equal<Answer<WhatsappLogins['removeClient']>, Out<typeof removeClientResponse>>>,
  Same<Equal<Answer<WhatsappLogins['qr']>, Out<typeof qrResponse>>>,
  Same<Equal<Answer<WhatsappLogins['clientState']>, Out<typeof clientStateResponse>>>,
  Same<Equal<Answer<WhatsappLogins['save']>, Out<typeof whatsappResponse>>>,
  Same<Equal<Answer<WhatsappService['get']>, Out<typeof whatsappResponse>['whatsapp']>>,
  Same<Equal<Answer<WhatsappService['listAll']>, Out<typeof whatsappList>>>,
  Same<Equal<Answer<WhatsappService['listForUser']>, Out<typeof whatsappList>>>,
  Same<Equal<Answer<WhatsappService['listPerPage']>, Out<typeof whatsappPage>>>,
  Same<Equal<Answer<WhatsappService['count']>, WhatsappCount>>,
  Same<Equal<Answer<WhatsappService['startBlasting']>, Out<typeof blastResponse>>>,
  Same<Equal<Answer<WhatsappService['stopBlasting']>, Out<typeof blastResponse>>>,
  Same<Equal<Answer<PhoneNumbersService['listPerPage']>, Out<typeof phoneNumberPage>>>,
  Same<Equal<Answer<PhoneNumbersService['get']>, Out<typeof phoneNumberResponse>>>,
  Same<Equal<Answer<PhoneNumbersService['save']>, Out<typeof savedPhoneNumber>>>,
  Same<Equal<Answer<PhoneNumbersService['update']>, Out<typeof savedPhoneNumber>>>,
  Same<Equal<Answer<PhoneNumbersService['remove']>, Out<typeof deletedPhoneNumber>>>,
  Same<Equal<Answer<PhoneNumbersService['countBlast']>, PhoneBlastCount>>,
  Same<Equal<Answer<MessageLogService['list']>, Paged<MessageLogItem>>>,
  Same<Equal<Answer<MessageLogService['count']>, MessageLogCount>>,
  Same<Equal<Answer<MessageLogService['todayCount']>, SuccessFailCount>>,
  Same<Equal<Answer<MessageLogService['totalCount']>, SuccessFailCount>>,
  Same<Equal<Answer<MessageLogService['todayIncome']>, IncomeResponse>>,
  Same<Equal<Answer<ReportService['report']>, ReportResponse>>,
  Same<Equal<Answer<ReportService['charts']>, ChartsResponse>>,
  Same<Equal<Answer<HealthService['check']>, Omit<Out<typeof healthResponse>, 'ok'>>>,
];
