import { Perm } from './permissions.js';

/**
 * The console's route table (spec section 2): every route with its permission code, its
 * title key (namespace `menu` of the web's i18n), whether the page is cached in the tab
 * bar, whether it shows in the navigation menu, and which page module draws it (`page`).
 * The server builds the navigation menu from this table; the web builds its router from it,
 * loading each route's `page` (the one registration of a page: the web finds the module by
 * this name, see apps/web/src/shell/pages.ts). A route without a page is not online yet.
 */
export interface RouteDef {
  path: string;
  /** i18n key in the `menu` namespace; absent for routes without a menu title. */
  title?: string;
  /** Permission code needed to open the route; absent means no mapping (always shown). */
  permission?: string;
  /** Shown as an item of the navigation menu (top level or child). */
  menu?: boolean;
  /** Icon name (the web maps it to an @ant-design/icons component). */
  icon?: string;
  /** Pages not cached in the tab bar (spec: advert edit, template new/edit, poster editor). */
  noCache?: boolean;
  /** Uses the plain layout (logged-out pages). */
  plain?: boolean;
  /** Affix tabs cannot be closed. */
  affix?: boolean;
  /**
   * The page's module, `<feature>/<Name>Page` under apps/web/src/features (the module's default
   * export draws the route). Without one the route shows 'feature not online'.
   */
  page?: string;
  /** The page's module is built (exactly the routes with a `page`: test/guards.test.ts). */
  online?: boolean;
}

const r = (path: string, title: string, permission?: string, extra: Partial<RouteDef> = {}): RouteDef => ({
  path,
  title,
  permission,
  ...extra,
});

export const ROUTES: readonly RouteDef[] = [
  // Top level with a menu title
  r('/', 'home', undefined, { menu: true, icon: 'home', affix: true, online: true, page: 'home/HomePage' }),
  r('/advert', 'advert', Perm.adv, { menu: true, icon: 'advert', online: true, page: 'ads/AdListPage' }),
  r('/template', 'template', Perm.template, { menu: true, online: true, page: 'templates/TemplatePage' }),
  r('/poster', 'poster', Perm.poster, { menu: true, online: true, page: 'posters/PosterPage' }),
  r('/device', 'device', Perm.device, { menu: true, icon: 'device', online: true, page: 'devices/DeviceListPage' }),
  r('/user', 'user', Perm.user, { menu: true, icon: 'user', online: true, page: 'accounts/UserIndexPage' }),
  r('/operate', 'operate', Perm.operate, { menu: true, icon: 'operate', online: true, page: 'sections/OperatePage' }),
  r('/report', 'report', Perm.report, { menu: true, icon: 'report', online: true, page: 'sections/ReportPage' }),
  r('/shop', 'shop', Perm.applicationMarket, { menu: true, icon: 'shop', online: true, page: 'market/ShopPage' }),
  r('/my', 'my', Perm.my, { menu: true, icon: 'my', online: true, page: 'my/MyPage' }),
  r('/skin', 'skin', undefined, { menu: true, online: true, page: 'skin/SkinPage' }),
  r('/alarm', 'alarm', Perm.alarm, { menu: true, icon: 'alarm', online: true, page: 'alarms/AlarmPage' }),
  r('/help', 'help', Perm.help, { menu: true, icon: 'help', online: true, page: 'sections/HelpPage' }),

  // Without a menu title
  { path: '/404', plain: true, online: true, page: 'errors/NotFoundPage' },
  { path: '/login', plain: true, online: true, page: 'auth/LoginPage' },
  { path: '/login/register', plain: true, online: true, page: 'auth/RegisterPage' },
  { path: '/dingTalkLogin', plain: true, online: true, page: 'auth/DingTalkLoginPage' },
  { path: '/wechatLogin', plain: true, online: true, page: 'auth/WechatLoginPage' },
  // Access (issue 3): the forced password change (updatePwd) and the development outbox
  { path: '/changePassword', plain: true, online: true, page: 'auth/ChangePasswordPage' },
  r('/dev/outbox', 'devOutbox', Perm.devOutbox, { online: true, page: 'outbox/OutboxPage' }),
  { path: '/adReport', title: 'adReport', online: true, page: 'reports/AdReportPrintPage' },
  { path: '/pay', title: 'pay', online: true, page: 'payments/PayPage' },
  { path: '/payUnderline', title: 'payUnderline', online: true, page: 'payments/OfflinePayPage' },
  r('/template/plugins/shares', 'templateShares', Perm.template, {
    online: true,
    page: 'templates/SharesPluginPage',
  }),
  r('/template/plugins/weather', 'templateWeather', Perm.template, {
    online: true,
    page: 'templates/WeatherPluginPage',
  }),
  r('/device/gather', 'deviceGather', Perm.deviceGather, { online: true, page: 'devicePlan/GatherPage' }),

  // Advert
  r('/advert/audit', 'advertAudit', Perm.advAudit, { menu: true, online: true, page: 'ads/AuditPage' }),
  r('/advert/edit', 'advertEdit', Perm.advEdit, { noCache: true, online: true, page: 'ads/AdEditPage' }),
  r('/advert/material', 'advertMaterial', Perm.advMaterial, {
    menu: true,
    online: true,
    page: 'materials/MaterialPage',
  }),
  r('/advert/plan', 'advertPlan', Perm.advPlan, { menu: true, online: true, page: 'ads/PlanPage' }),
  r('/advert/report', 'advertReport', Perm.advReport, { menu: true, online: true, page: 'reports/AdReportListPage' }),
  r('/advert/reportDetail', 'advertReportDetail', Perm.advReport, { online: true, page: 'reports/AdReportDetailPage' }),

  // Alarm: the three alarm routes share one permission
  r('/alarm/report', 'alarmReport', Perm.alarm, { menu: true, online: true, page: 'alarms/AlarmReportPage' }),
  r('/alarm/setting', 'alarmSetting', Perm.alarm, { menu: true, online: true, page: 'alarms/AlarmSettingPage' }),

  // Device
  r('/device/context', 'deviceContext', Perm.deviceContext, {
    menu: true,
    online: true,
    page: 'devices/DeviceContextPage',
  }),
  r('/device/devicePlan', 'devicePlan', Perm.devicePlan, {
    menu: true,
    online: true,
    page: 'devicePlan/DevicePlanPage',
  }),
  r('/device/group', 'deviceGroup', Perm.deviceGroup, { menu: true, online: true, page: 'deviceGroups/GroupPage' }),
  r('/device/group/addView', 'deviceGroupAdd', Perm.deviceGroup, { online: true, page: 'deviceGroups/GroupEditPage' }),
  r('/device/playlist', 'devicePlaylist', Perm.devicePlaylist, {
    menu: true,
    online: true,
    page: 'devicePlan/PlaylistPage',
  }),
  r('/device/remote', 'deviceRemote', Perm.deviceRemote, { menu: true, online: true, page: 'screenshots/RemotePage' }),
  r('/device/screenshot', 'deviceScreenshot', Perm.deviceScreenshot, {
    menu: true,
    online: true,
    page: 'screenshots/ScreenshotPage',
  }),
  r('/device/screenshotHistory', 'deviceScreenshotHistory', Perm.deviceScreenshot, {
    online: true,
    page: 'screenshots/ScreenshotHistoryPage',
  }),
  r('/device/splicDevice', 'deviceSplice', Perm.deviceSplice, { menu: true, online: true, page: 'splice/SplicePage' }),
  r('/device/strategy', 'deviceStrategy', Perm.deviceStrategy, {
    menu: true,
    online: true,
    page: 'strategies/StrategyPage',
  }),
  r('/device/tags', 'deviceTags', Perm.deviceTags, { menu: true, online: true, page: 'deviceGroups/TagsPage' }),
  r('/device/tag/addView', 'deviceTagAdd', Perm.deviceTags, { online: true, page: 'deviceGroups/TagEditPage' }),

  // Help
  r('/help/download', 'helpDownload', Perm.helpDownload, { menu: true, online: true, page: 'help/DownloadPage' }),
  r('/help/helpFile', 'helpFile', Perm.helpFile, { menu: true, online: true, page: 'help/HelpFilePage' }),

  // My
  r('/my/finance', 'myFinance', Perm.myFinance, { menu: true, online: true, page: 'finance/FinancePage' }),
  r('/my/help', 'myHelp', Perm.my, { menu: true, online: true, page: 'feedback/FeedbackPage' }),

  // Operate
  r('/operate/adMonitor', 'operateAdMonitor', Perm.operateAdMonitor, {
    menu: true,
    online: true,
    page: 'monitoring/MonitorPlanPage',
  }),
  r('/operate/coupon', 'operateCoupon', Perm.operateCoupon, { menu: true, online: true, page: 'sales/CouponPage' }),
  r('/operate/flow', 'operateFlow', Perm.operateFlow, { menu: true, online: true, page: 'flow/FlowCardPage' }),
  r('/operate/goods', 'operateGoods', Perm.operateGoods, { menu: true, online: true, page: 'sales/GoodsPage' }),
  r('/operate/monitorTask', 'operateMonitorTask', Perm.operateMonitorTask, {
    menu: true,
    online: true,
    page: 'monitoring/MonitorTaskPage',
  }),
  r('/operate/order', 'operateOrder', Perm.operateOrder, { menu: true, online: true, page: 'sales/OrderListPage' }),
  r('/operate/orderDetail', 'operateOrderDetail', Perm.operateOrder, { online: true, page: 'sales/OrderDetailPage' }),
  r('/operate/signContract', 'operateSignContract', Perm.operateSignContract, {
    menu: true,
    online: true,
    page: 'contracts/SignContractPage',
  }),
  r('/operate/slot', 'operateSlot', Perm.operateSlot, { menu: true, online: true, page: 'sales/SlotPage' }),
  r('/operate/taskDetail', 'operateTaskDetail', Perm.operateMonitorTask, {
    online: true,
    page: 'monitoring/TaskDetailPage',
  }),
  r('/operate/warning', 'operateWarning', Perm.operateWarning, {
    menu: true,
    online: true,
    page: 'warnings/WarningPage',
  }),

  // Poster
  r('/poster/editor', 'posterEditor', Perm.poster, { noCache: true, online: true, page: 'posters/PosterEditorPage' }),
  r('/poster/tplHistory', 'posterTplHistory', Perm.poster, {
    menu: true,
    online: true,
    page: 'posters/PosterHistoryPage',
  }),

  // Report
  r('/report/ad', 'reportAd', Perm.reportAd, { menu: true, online: true, page: 'reports/AdReportListPage' }),
  r('/report/adDetail', 'reportAdDetail', Perm.reportAd, { online: true, page: 'reports/AdReportDetailPage' }),
  r('/report/device', 'reportDevice', Perm.reportDevice, {
    menu: true,
    online: true,
    page: 'deviceReports/DeviceReportPage',
  }),
  r('/report/deviceDetail', 'reportDeviceDetail', Perm.reportDevice, {
    online: true,
    page: 'deviceReports/DeviceReportDetailPage',
  }),
  r('/report/deviceSchedule', 'reportDeviceSchedule', Perm.reportDeviceSchedule, {
    menu: true,
    online: true,
    page: 'reports/DeviceSchedulePage',
  }),
  r('/report/flowConsumption', 'reportFlowConsumption', Perm.sourceConsumption, {
    menu: true,
    online: true,
    page: 'flow/FlowConsumptionPage',
  }),
  r('/report/issuedRecords', 'reportIssuedRecords', Perm.reportIssuedRecords, {
    menu: true,
    online: true,
    page: 'deviceReports/IssuedRecordsPage',
  }),
  r('/report/operationLog', 'reportOperationLog', Perm.reportOperationLog, {
    menu: true,
    online: true,
    page: 'operationLog/OperationLogPage',
  }),
  r('/report/qrcodeEvent', 'reportQrcodeEvent', Perm.reportQrcodeEvent, {
    menu: true,
    online: true,
    page: 'qrcode/QrcodeEventPage',
  }),

  // Shop
  r('/shop/detail', 'shopDetail', Perm.applicationMarket, { online: true, page: 'market/ShopDetailPage' }),
  r('/shop/order', 'shopOrder', Perm.shopOrder, { menu: true, online: true, page: 'market/ShopOrderPage' }),

  // Special
  r('/special/resource', 'specialResource', Perm.specialResource, {
    menu: true,
    online: true,
    page: 'special/SpecialResourcePage',
  }),

  // Template
  r('/template/edit', 'templateEdit', Perm.templateEdit, {
    noCache: true,
    online: true,
    page: 'layoutEditor/LayoutEditorPage',
  }),
  r('/template/new', 'templateNew', Perm.templateEdit, {
    noCache: true,
    online: true,
    page: 'layoutEditor/LayoutEditorPage',
  }),

  // User
  r('/user/adv', 'userAdv', Perm.userAdv, { menu: true, online: true, page: 'advertisers/AdvertiserPage' }),
  r('/user/allot', 'userAllot', Perm.userAllot, { menu: true, online: true, page: 'advertisers/AllotPage' }),
  r('/user/company', 'userCompany', Perm.userCompany, { menu: true, online: true, page: 'accounts/CompanyPage' }),
  r('/user/companyRole', 'userCompanyRole', Perm.userCompanyRole, {
    menu: true,
    online: true,
    page: 'roles/RolesPage',
  }),
];

/** Menu URL aliases (spec section 2). /shop/order and /help are unchanged. */
export const ROUTE_ALIASES: Readonly<Record<string, string>> = {
  '/adv_audit': '/advert/audit',
  '/material_mag': '/advert/material',
  '/temp_mag': '/template',
  '/dev_mag': '/device',
  '/ads_platform': '/user/adv',
  '/corporate_manage': '/user/company',
  '/slot_mag': '/operate/slot',
  '/goods_mag': '/operate/goods',
  '/slot_order_mag': '/operate/order',
  '/app_tags': '/device/tags',
  '/personal_center': '/my',
  '/device_report': '/report/device',
  '/ad_report': '/report/ad',
  '/operation_log': '/report/operationLog',
  '/qrcode_event': '/report/qrcodeEvent',
  '/finance_center': '/my/finance',
  '/app_market': '/shop',
  '/pay/aggregation': '/pay',
  '/pay/underline': '/payUnderline',
};

/**
 * Menu sections (spec section 2, "Menu sections (code: area)"): the code of a section and
 * the first path segments it covers. The active section comes from the first segment.
 */
export const MENU_SECTIONS: readonly { code: string; icon: string; roots: readonly string[] }[] = [
  { code: 'home', icon: 'home', roots: ['/'] },
  { code: Perm.adv, icon: 'advert', roots: ['/advert', '/template', '/poster'] },
  { code: Perm.device, icon: 'device', roots: ['/device'] },
  { code: Perm.user, icon: 'user', roots: ['/user'] },
  { code: Perm.operate, icon: 'operate', roots: ['/operate'] },
  { code: Perm.report, icon: 'report', roots: ['/report'] },
  { code: Perm.applicationMarket, icon: 'shop', roots: ['/shop'] },
  { code: Perm.my, icon: 'my', roots: ['/my', '/skin'] },
  { code: Perm.alarm, icon: 'alarm', roots: ['/alarm'] },
  { code: Perm.help, icon: 'help', roots: ['/help'] },
];

const routeByPath = new Map(ROUTES.map((route) => [route.path, route]));

export function findRoute(path: string): RouteDef | undefined {
  return routeByPath.get(path);
}

/** Resolves an alias to its real route; other paths are returned unchanged. */
export function resolveAlias(path: string): string {
  return ROUTE_ALIASES[path] ?? path;
}

/** The menu section a path belongs to, from its first segment. */
export function sectionOf(path: string): string {
  const first = `/${path.split('/').filter(Boolean)[0] ?? ''}`;
  return MENU_SECTIONS.find((s) => s.roots.includes(first))?.code ?? 'home';
}

/** A menu item as the server sends it (spec section 3: code, url, child list). */
export interface MenuItem {
  code: string;
  url: string;
  icon?: string;
  children?: MenuItem[];
}

/**
 * Whether an item's module is online (the route table's `online`: it has a page): its own route, or for a
 * section, any of its children. Entries of modules not online yet are marked as such in the
 * menu and on the home page; they open the "feature not online" page.
 */
export function isMenuItemOnline(item: Pick<MenuItem, 'url' | 'children'>): boolean {
  if (findRoute(resolveAlias(item.url))?.online) return true;
  return item.children?.some((child) => isMenuItemOnline(child)) ?? false;
}

/**
 * Builds the navigation menu: one item per section, its menu routes as children, each
 * kept only if `allowed` says so for the route's permission (a route without mapping shows).
 */
export function buildMenu(allowed: (permission: string | undefined) => boolean): MenuItem[] {
  const menu: MenuItem[] = [];
  for (const section of MENU_SECTIONS) {
    for (const root of section.roots) {
      const top = routeByPath.get(root);
      if (!top?.menu || !allowed(top.permission)) continue;
      const children = ROUTES.filter(
        (route) => route.menu && route.path !== root && route.path.startsWith(`${root}/`) && allowed(route.permission),
      ).map((route) => ({ code: route.title ?? route.path, url: route.path }));
      menu.push({
        code: top.title ?? root,
        url: root,
        icon: top.icon ?? section.icon,
        ...(children.length > 0 ? { children } : {}),
      });
    }
  }
  return menu;
}
