/**
 * Permission codes (spec section 6). The spec names the section codes and a few action
 * codes; the codes of the other routes follow the same `yxf_new_<area>_<page>` pattern.
 * A role holds a list of codes; the server enforces them on every endpoint and the web
 * hides what the user may not do.
 */
export const Perm = {
  // Menu sections (spec section 2, "Menu sections (code: area)")
  adv: 'yxf_new_adv',
  device: 'yxf_new_device',
  user: 'yxf_new_user',
  operate: 'yxf_new_operate',
  report: 'yxf_new_report',
  applicationMarket: 'yxf_new_application_market',
  my: 'yxf_new_my',
  alarm: 'yxf_new_alarm',
  help: 'yxf_new_help',
  // Codes the spec names for single routes and actions
  sourceConsumption: 'yxf_new_source_consumption',
  specialResource: 'yxf_new_special_resource',
  dataAllocation: 'yxf_new_data_allocation',
  appMarket: 'yxf_new_app_market',
  subDeptList: '2019103001273',
  // Advert pages
  advAudit: 'yxf_new_adv_audit',
  advEdit: 'yxf_new_adv_edit',
  advMaterial: 'yxf_new_adv_material',
  advPlan: 'yxf_new_adv_plan',
  advReport: 'yxf_new_adv_report',
  template: 'yxf_new_template',
  templateEdit: 'yxf_new_template_edit',
  poster: 'yxf_new_poster',
  // Device pages
  deviceContext: 'yxf_new_device_context',
  devicePlan: 'yxf_new_device_plan',
  deviceGroup: 'yxf_new_device_group',
  devicePlaylist: 'yxf_new_device_playlist',
  deviceRemote: 'yxf_new_device_remote',
  deviceScreenshot: 'yxf_new_device_screenshot',
  deviceSplice: 'yxf_new_device_splice',
  deviceStrategy: 'yxf_new_device_strategy',
  deviceTags: 'yxf_new_device_tags',
  deviceGather: 'yxf_new_device_gather',
  // User pages
  userAdv: 'yxf_new_user_adv',
  userAllot: 'yxf_new_user_allot',
  userCompany: 'yxf_new_user_company',
  userCompanyRole: 'yxf_new_user_company_role',
  // Operate pages
  operateAdMonitor: 'yxf_new_operate_ad_monitor',
  operateCoupon: 'yxf_new_operate_coupon',
  operateFlow: 'yxf_new_operate_flow',
  operateGoods: 'yxf_new_operate_goods',
  operateMonitorTask: 'yxf_new_operate_monitor_task',
  operateOrder: 'yxf_new_operate_order',
  operateSignContract: 'yxf_new_operate_sign_contract',
  operateSlot: 'yxf_new_operate_slot',
  operateWarning: 'yxf_new_operate_warning',
  // Report pages
  reportAd: 'yxf_new_report_ad',
  reportDevice: 'yxf_new_report_device',
  reportDeviceSchedule: 'yxf_new_report_device_schedule',
  reportIssuedRecords: 'yxf_new_report_issued_records',
  reportOperationLog: 'yxf_new_report_operation_log',
  reportQrcodeEvent: 'yxf_new_report_qrcode_event',
  // Market, my, help
  shopOrder: 'yxf_new_shop_order',
  myFinance: 'yxf_new_my_finance',
  helpDownload: 'yxf_new_help_download',
  helpFile: 'yxf_new_help_file',
  // Header actions
  deptSwitch: 'yxf_new_dept_switch',
  notice: 'yxf_new_notice',
  // Organisation actions (issue 3, "org"): enterprises, accounts, roles, departments
  userCompanyManage: 'yxf_new_user_company_manage',
  userAccountManage: 'yxf_new_user_account_manage',
  userRoleManage: 'yxf_new_user_role_manage',
  userDeptManage: 'yxf_new_user_dept_manage',
  // Stores (issue 9, dev-geo): add, edit, delete stores and place devices in them
  userStoreManage: 'yxf_new_user_store_manage',
  // Access (issue 3, "access"): the development outbox of verification messages (platform operator only)
  devOutbox: 'yxf_new_dev_outbox',
  // Money (issue 26): the platform operator's side of finance: every wallet and the platform's
  // accounts, offline payments to confirm, invoices to issue, bills to raise
  financeManage: 'yxf_new_finance_manage',
  // The market (issue 27): the platform operator keeps the catalogue (products, prices, shelf)
  marketManage: 'yxf_new_market_manage',
  // Feedback (issue 31): the platform operator reads everyone's feedback and replies
  feedbackManage: 'yxf_new_feedback_manage',
  // Help documents (issue 31): the platform operator writes the help documents everyone reads
  helpManage: 'yxf_new_help_manage',
  // Selling airtime (issue 28): who keeps slots, goods, price contracts, coupons and settles
  // orders, beside the page codes that let advertisers browse goods and order.
  salesManage: 'yxf_new_operate_sales_manage',
  // Special resources (issue 31): the platform operator keeps special resources and answers
  // advertisers' inquiries (the page code yxf_new_special_resource reads and inquires)
  specialResourceManage: 'yxf_new_special_resource_manage',
  // Dictionaries (issue 31): the platform operator keeps the lists pickers offer (device types, venue types)
  dictionaryManage: 'yxf_new_dictionary_manage',
} as const;

export type PermCode = (typeof Perm)[keyof typeof Perm];

export const ALL_PERMISSION_CODES: readonly string[] = Object.values(Perm);

/**
 * Section 6: a numeric code value counts as allowed; a comma-separated code is allowed
 * if any of its parts is held; an empty or absent code needs nothing.
 */
export function hasPermission(
  held: readonly string[] | ReadonlySet<string>,
  required: string | null | undefined,
): boolean {
  if (required == null) return true;
  const has = (code: string) => (Array.isArray(held) ? held.includes(code) : (held as ReadonlySet<string>).has(code));
  const parts = required
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return true;
  return parts.some((p) => /^\d+$/.test(p) || has(p));
}

// Access (issue 3, "access"): codes only the platform provider's roles may hold. An
// enterprise's built-in administrator role (self-registration) gets every other code.
export const PROVIDER_ONLY_CODES: readonly string[] = [
  Perm.devOutbox,
  Perm.financeManage,
  Perm.marketManage,
  Perm.feedbackManage,
  Perm.helpManage,
  Perm.specialResourceManage,
  Perm.dictionaryManage,
];
export const ENTERPRISE_ADMIN_CODES: readonly string[] = ALL_PERMISSION_CODES.filter(
  (code) => !PROVIDER_ONLY_CODES.includes(code),
);

/** What a new enterprise's advertiser role holds when the enterprise has none yet (the built-in advertiser role). */
export const ADVERTISER_ROLE_CODES: readonly string[] = [
  Perm.adv,
  Perm.advEdit,
  Perm.advMaterial,
  Perm.advPlan,
  Perm.advReport,
  Perm.report,
  Perm.reportAd,
  Perm.my,
  Perm.myFinance,
  Perm.operate,
  Perm.operateGoods,
  Perm.operateOrder,
  Perm.operateSignContract,
  Perm.help,
  Perm.helpFile,
  Perm.notice,
  Perm.specialResource,
];

/**
 * The codes an account of an enterprise kind can hold: a role of a customer enterprise or an
 * agent that lists a provider-only code (a misconfigured or old role) does not grant it.
 */
export function allowedCodes(kind: 'provider' | 'agent' | 'enterprise'): readonly string[] {
  return kind === 'provider' ? ALL_PERMISSION_CODES : ENTERPRISE_ADMIN_CODES;
}
