import { z } from 'zod';
import { requiredNumber, requiredText } from './common';

/** The one settings row (§3 Setting). */
export interface SettingDto {
  interval_min: number;
  interval_max: number;
  price: number;
  bank_names: string;
  colors: string;
  referral_percent: number;
  info: string;
}

/** A comma-separated list, normalised to "A, B, C" (§3: comma-space separated). */
const list = (label: string, item: RegExp, itemMsg: string) =>
  requiredText(`${label} is required.`, 2000).transform((v, ctx) => {
    const items = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!items.length) {
      ctx.addIssue({ code: 'custom', message: `${label} is required.` });
      return z.NEVER;
    }
    const bad = items.find((i) => !item.test(i));
    if (bad) {
      ctx.addIssue({ code: 'custom', message: itemMsg.replace('{item}', bad) });
      return z.NEVER;
    }
    return items.join(', ');
  });

/** PUT /admin/setting/update (§5 Settings: all fields required; referral_percent 0–100). */
export const settingsBody = z
  .object({
    interval_min: requiredNumber('Interval min', 0, 86_400),
    interval_max: requiredNumber('Interval max', 0, 86_400),
    price: requiredNumber('Price', 0, 1_000_000_000),
    bank_names: list('Bank names', /^[^\s,][^,]{0,49}$/, 'Bank name "{item}" is too long.'),
    colors: list('Colors', /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, '"{item}" is not a hex colour like #3C50E0.'),
    referral_percent: requiredNumber('Referral percent', 0, 100),
    info: requiredText('Info is required.', 2000),
  })
  .superRefine((v, ctx) => {
    if (v.interval_min > v.interval_max) {
      ctx.addIssue({
        code: 'custom',
        path: ['interval_min'],
        message: 'Interval minimal harus lebih kecil dari interval maksimal',
      });
    }
  });
