import type { RouteDef } from '@marquee/protocol';
import type { PageLoader } from '../components/routeHandle';
import { loadRemainingNamespaces } from '../i18n';

/** A page's loader that also loads its feature's own texts (i18n PAGE_NAMESPACES). */
const withTexts =
  (ns: string, load: PageLoader): PageLoader =>
  async () => {
    const [page] = await Promise.all([load(), loadRemainingNamespaces([ns])]);
    return page;
  };

/**
 * The page module of each online route inside the shell (every route that is not `plain`);
 * the pages outside it are in `app/pages.ts`. A feature that comes online adds its loader
 * here and sets `online: true` in the protocol's route table.
 *
 * These `import()`s are written in the shell's chunk (it loads through `shellEntry.ts`) on
 * purpose: the bundler then sees that the shell is loaded whenever one of these pages is, and
 * keeps the antd code the shell already has (popups, modal, form context, skeleton, ...) in the
 * shell's chunks. Written in the entry chunk, they let it cut that code into one small chunk
 * per combination of pages sharing it, which the home route then loaded on top of the shell.
 * The cost: on the first load of the shell, a page's chunk is asked for once the shell's has run.
 */
export const SHELL_PAGE_LOADERS: Readonly<Record<string, PageLoader>> = {
  '/': () => import('../features/home/HomePage'),
  '/skin': () => import('../features/skin/SkinPage'),
  '/template': () => import('../features/template/TemplatePage'),
  '/template/plugins/weather': () => import('../features/template/WeatherPluginPage'),
  '/my': () => import('../features/my/MyPage'),
  '/dev/outbox': () => import('../features/outbox/OutboxPage'),
  '/report/operationLog': () => import('../features/operationLog/OperationLogPage'),
  '/report/device': () => import('../features/deviceReports/DeviceReportPage'),
  '/report/deviceDetail': () => import('../features/deviceReports/DeviceReportDetailPage'),
  '/report/issuedRecords': () => import('../features/deviceReports/IssuedRecordsPage'),
  '/user/adv': () => import('../features/advertisers/AdvertiserPage'),
  '/user/allot': () => import('../features/advertisers/AllotPage'),
  '/user': () => import('../features/company/UserIndexPage'),
  '/user/company': () => import('../features/company/CompanyPage'),
  '/user/companyRole': () => import('../features/roles/RolesPage'),
  '/device/strategy': () => import('../features/strategy/StrategyPage'),
  '/poster': withTexts('poster', () => import('../features/poster/PosterPage')),
  '/poster/editor': withTexts('poster', () => import('../features/poster/PosterEditorPage')),
  '/poster/tplHistory': withTexts('poster', () => import('../features/poster/PosterHistoryPage')),
  '/device': () => import('../features/devices/DeviceListPage'),
  '/device/context': () => import('../features/devices/DeviceContextPage'),
  '/device/remote': () => import('../features/remote/RemotePage'),
  '/device/screenshot': () => import('../features/remote/ScreenshotPage'),
  '/device/screenshotHistory': () => import('../features/remote/ScreenshotHistoryPage'),
  '/device/group': () => import('../features/deviceGroups/GroupPage'),
  '/device/group/addView': () => import('../features/deviceGroups/GroupEditPage'),
  '/device/tags': () => import('../features/deviceGroups/TagsPage'),
  '/device/tag/addView': () => import('../features/deviceGroups/TagEditPage'),
  '/device/splicDevice': () => import('../features/splice/SplicePage'),
  '/device/devicePlan': () => import('../features/devicePlan/DevicePlanPage'),
  '/device/playlist': () => import('../features/devicePlan/PlaylistPage'),
  '/device/gather': () => import('../features/devicePlan/GatherPage'),
  '/advert/material': () => import('../features/materials/MaterialPage'),
  '/advert': () => import('../features/ads/AdListPage'),
  '/advert/audit': () => import('../features/ads/AuditPage'),
  '/advert/edit': () => import('../features/ads/AdEditPage'),
  '/advert/plan': () => import('../features/ads/PlanPage'),
  '/advert/report': () => import('../features/reports/AdReportListPage'),
  '/advert/reportDetail': () => import('../features/reports/AdReportDetail'),
  '/report/ad': () => import('../features/reports/AdReportListPage'),
  '/report/adDetail': () => import('../features/reports/AdReportDetail'),
  '/report/deviceSchedule': () => import('../features/reports/DeviceSchedulePage'),
  '/adReport': () => import('../features/reports/AdReportPrintPage'),
  '/template/new': withTexts('layoutEditor', () => import('../features/layoutEditor/LayoutEditorPage')),
  '/template/edit': withTexts('layoutEditor', () => import('../features/layoutEditor/LayoutEditorPage')),
};

const notOnline: PageLoader = () => import('../features/common/NotOnlinePage');

/** The page loader of a route inside the shell; the "feature not online" page for the others. */
export function shellPageLoader(route: RouteDef): PageLoader {
  return (route.online ? SHELL_PAGE_LOADERS[route.path] : undefined) ?? notOnline;
}
