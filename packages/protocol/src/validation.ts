import { z } from 'zod';

/**
 * Validation rules of spec section 5, as zod schemas shared by the server and the web.
 * Messages are i18n keys of the web's `validation` namespace; the server answers
 * INVALID_PARAMS with the failing field and key, translated for the caller.
 */
export const pageSchema = z.object({
  page: z.number().int().min(1).default(1),
  size: z.number().int().min(1).max(500).default(50),
});

/** Directions of a sorted list. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * The sort fields of a list request: `sort` names one of the list's sortable columns (the
 * table config's `sortable` props), `order` its direction (ascending when left out). Without
 * `sort` the list keeps its own default order. Spread into the list's request schema.
 */
export function sortFields<const K extends string>(keys: readonly [K, ...K[]]) {
  return { sort: z.enum(keys).optional(), order: z.enum(SORT_ORDERS).optional() };
}

/** Table page sizes (spec section 9). */
export const PAGE_SIZES = [10, 20, 50, 100, 500] as const;
export const DEFAULT_PAGE_SIZE = 50;

/** A list request's page size: one of the table page sizes (spec section 9). */
export function listPageSize(defaultSize: (typeof PAGE_SIZES)[number] = DEFAULT_PAGE_SIZE) {
  return z
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
    .default(defaultSize);
}

export const loginAccountSchema = z
  .string()
  .min(6, 'validation.loginAccount')
  .max(32, 'validation.loginAccount')
  .regex(/^\w+$/, 'validation.loginAccount');

/** Strength rule: 10 to 15 characters with at least 3 of upper, lower, digits, symbols. */
export function passwordStrengthClasses(password: string): number {
  return [/[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
}

export const strongPasswordSchema = z
  .string()
  .min(10, 'validation.passwordLength')
  .max(15, 'validation.passwordLength')
  .refine((p) => passwordStrengthClasses(p) >= 3, 'validation.passwordClasses');

/** A password that does not meet the strength rule gets the weak-password warning. */
export function isWeakPassword(password: string): boolean {
  return !strongPasswordSchema.safeParse(password).success;
}

/** Login accepts any stored password of at least 6 characters (spec: "minimum 6"). */
export const loginPasswordSchema = z.string().min(6, 'validation.passwordMin').max(128);

export const departmentNameSchema = z
  .string()
  .trim()
  .min(1, 'validation.required')
  .max(20, 'validation.departmentName');

export const companyNameSchema = z
  .string()
  .min(5, 'validation.companyName')
  .refine((v) => !/^\d+$/.test(v), 'validation.companyName');

export const socialCreditCodeSchema = z
  .string()
  .length(18, 'validation.socialCreditCode')
  .refine((v) => !/[\u4e00-\u9fff]/.test(v), 'validation.socialCreditCode');

export const iccidSchema = z.string().regex(/^[A-Za-z0-9]{19,20}$/, 'validation.iccid');

export const materialFolderNameSchema = z
  .string()
  .min(1, 'validation.required')
  .max(50, 'validation.folderName')
  .refine((v) => !/[\\|/:?*<>]/.test(v), 'validation.folderName');

export const feedbackSchema = z.string().min(1, 'validation.required').max(500, 'validation.feedback');

export const rechargeAmountSchema = z
  .number()
  .gt(0, 'validation.rechargeAmount')
  .max(100000, 'validation.rechargeAmount')
  .refine((v) => Math.round(v * 100) === v * 100, 'validation.twoDecimals');

export const layoutSideSchema = z.number().int().min(48, 'validation.layoutSide').max(11520, 'validation.layoutSide');

// Organisation (issue 3, "org"): accounts, roles, enterprises, invitations
export const realNameSchema = z.string().trim().min(1, 'validation.required').max(30, 'validation.realName');
/**
 * A phone number (accounts, advertisers): optional +, then digits, spaces or dashes, 20
 * characters at most, with 7 (a local number without its area code) to 15 (E.164) digits;
 * '12345' is refused (issue 25).
 */
export const phoneSchema = z
  .string()
  .max(20, 'validation.phone')
  .regex(/^\+?(?:[ -]*\d){7,15}[ -]*$/, 'validation.phone');
export const optionalPhoneSchema = z.union([phoneSchema, z.literal('')]).optional();
export const emailSchema = z.union([z.email('validation.email'), z.literal('')]).optional();
export const roleNameSchema = z.string().trim().min(1, 'validation.required').max(30, 'validation.roleName');
export const contactSchema = z.string().trim().min(1, 'validation.required').max(30, 'validation.contact');

/**
 * Spec section 5: single-field entry within 12 characters. The rule of a form whose only
 * input is one free-text field (a name typed in a small dialog) unless a rule of its own applies.
 */
export const SINGLE_FIELD_MAX = 12;
export const singleFieldSchema = z
  .string()
  .min(1, 'validation.required')
  .max(SINGLE_FIELD_MAX, 'validation.singleField');

/** A new password with its confirmation (add account, reset password, invitation). */
export const newPasswordPairSchema = z
  .object({ password: strongPasswordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'validation.passwordConfirm',
    path: ['confirmPassword'],
  });

// Access (issue 3, "access"): verification codes, registration, password retrieval
/** A mobile number: optional +, then 6 to 15 digits (spaces and dashes are removed first). */
export const mobileSchema = z
  .string()
  .transform((v) => v.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^\+?\d{6,15}$/, 'validation.mobile'));
export const emailAddressSchema = z.string().max(254, 'validation.email').pipe(z.email('validation.email'));
/** Where a verification code goes: a mobile number or an e-mail address (normalised). */
export const codeTargetSchema = z
  .string()
  .max(254, 'validation.codeTarget')
  .transform((v) => (v.includes('@') ? v.trim().toLowerCase() : v.replace(/[\s-]/g, '')))
  .refine((v) => /^\+?\d{6,15}$/.test(v) || z.email().safeParse(v).success, 'validation.codeTarget');
/** A code target is an e-mail address (else a mobile number). */
export function isEmailTarget(target: string): boolean {
  return target.includes('@');
}
/** A verification code: 6 digits. */
export const verificationCodeSchema = z.string().regex(/^\d{6}$/, 'validation.verificationCode');
/** The password and its confirmation must match (a refinement on objects with both fields). */
export function passwordsMatch(v: { password: string; confirmPassword: string }): boolean {
  return v.password === v.confirmPassword;
}
export const PASSWORD_CONFIRM_ISSUE = { message: 'validation.passwordConfirm', path: ['confirmPassword'] };

/** A calendar day (YYYY-MM-DD, UTC in reports and plans) within 2000..9999. */
export const reportDaySchema = z.iso
  .date()
  .refine((d) => d >= '2000-01-01' && d <= '9999-12-31', 'validation.dateTimeFormat');

/** A range of days: the end not before the start, at most `max` days, both ends included. */
export function dateRangeIssues(range: { from?: string; to?: string }, max: number, ctx: z.RefinementCtx): void {
  if (!range.from || !range.to) return;
  if (range.to < range.from) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.endBeforeStart' });
    return;
  }
  const days =
    Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / 86_400_000) + 1;
  if (days > max) ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.rangeTooLong', params: { max } });
}
