import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Short, generic texts an admin replaces in Pengaturan. */
const DEFAULT_TERMS_TEXT = [
  'Syarat dan Ketentuan',
  'Dengan mendaftar, Anda setuju menggunakan layanan ini sesuai hukum yang berlaku dan tidak untuk spam, penipuan atau konten terlarang.',
  'Akun WhatsApp yang Anda hubungkan tetap tanggung jawab Anda. Fee dibayar sesuai pengaturan yang berlaku dan dapat berubah sewaktu-waktu.',
  'Admin dapat menangguhkan akun yang melanggar ketentuan ini.',
].join('\n\n');
const DEFAULT_PRIVACY_TEXT = [
  'Kebijakan Privasi',
  'Kami menyimpan nama, email, data rekening dan data akun WhatsApp Anda hanya untuk menjalankan layanan dan membayar fee Anda.',
  'Data Anda tidak dijual kepada pihak lain. Anda dapat meminta penghapusan data dengan menghubungi admin.',
].join('\n\n');
const DEFAULT_SUPPORT_CONTACT = 'Telegram: https://t.me/wablaster';

/** The one settings row (§3 Setting), created with the §9 defaults by the first migration. */
export const settings = pgTable(
  'settings',
  {
    id: integer('id').primaryKey().default(1),
    intervalMin: integer('interval_min').notNull(),
    intervalMax: integer('interval_max').notNull(),
    price: integer('price').notNull(),
    bankNames: text('bank_names').notNull(),
    colors: text('colors').notNull(),
    referralPercent: integer('referral_percent').notNull().default(0),
    info: text('info').notNull().default(''),
    /** account safety (see docs/PRODUCT.md): replies that opt a target out, comma-separated */
    optoutKeywords: text('optout_keywords').notNull().default('STOP, berhenti, unsubscribe'),
    /** this many failed blast sends in a row pause the account */
    failStreakPause: integer('fail_streak_pause').notNull().default(5),
    /** how long a pause after ban signals lasts */
    pauseHours: integer('pause_hours').notNull().default(6),
    /** the daily cap of blast messages per account: start, growth per day connected, maximum */
    dailyCapStart: integer('daily_cap_start').notNull().default(30),
    dailyCapGrowth: integer('daily_cap_growth').notNull().default(20),
    dailyCapMax: integer('daily_cap_max').notNull().default(500),
    /** the hours blasts may send in, 'HH:MM' in APP_TIMEZONE */
    sendWindowStart: text('send_window_start').notNull().default('08:00'),
    sendWindowEnd: text('send_window_end').notNull().default('20:00'),
    /** number checks per account per day, and how long a number's check result is reused */
    checkBudgetDaily: integer('check_budget_daily').notNull().default(1000),
    checkCacheDays: integer('check_cache_days').notNull().default(30),
    /** when a member earns a message's fee: 'accepted' by WhatsApp, or 'delivered' to the phone */
    payoutOn: text('payout_on').notNull().default('accepted'),
    /** with payout_on = 'delivered': a message still undelivered this long after sending is settled unpaid */
    undeliveredWindowHours: integer('undelivered_window_hours').notNull().default(24),
    /** the public pages (issue 20): /terms, /privacy-policy, the contact /reset-password shows */
    termsText: text('terms_text').notNull().default(DEFAULT_TERMS_TEXT),
    privacyText: text('privacy_text').notNull().default(DEFAULT_PRIVACY_TEXT),
    supportContact: text('support_contact').notNull().default(DEFAULT_SUPPORT_CONTACT),
    /** the member menu's Telegram link; '' hides it */
    telegramUrl: text('telegram_url').notNull().default('https://t.me/wablaster'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('settings_single_row', sql`${t.id} = 1`),
    check('settings_referral_percent_range', sql`${t.referralPercent} between 0 and 100`),
    check('settings_payout_on', sql`${t.payoutOn} in ('accepted', 'delivered')`),
  ],
);
