import type { QrcodeGroup } from '@marquee/protocol';
import { registerExportSource } from '../operationLog/exportJob.js';
import { groupedRows, QRCODE_EXPORT_KIND, type QrcodeExportSpec, scansWhere } from './service.js';

const FIRST: Record<string, Record<QrcodeGroup, string>> = {
  'zh-CN': { day: '日期', ad: '广告', layout: '布局', device: '设备' },
  'en-US': { day: 'Day', ad: 'Ad', layout: 'Layout', device: 'Device' },
  ja: { day: '日付', ad: '広告', layout: 'レイアウト', device: 'デバイス' },
};
const REST: Record<string, string[]> = {
  'zh-CN': ['ID', '扫码次数', '设备数', '最近扫码'],
  'en-US': ['ID', 'Scans', 'Devices', 'Last scan'],
  ja: ['ID', 'スキャン数', 'デバイス数', '最終スキャン'],
};
const SHEET: Record<string, string> = { 'zh-CN': '二维码事件', 'en-US': 'QR code events', ja: 'QRコードイベント' };
const NO_AD: Record<string, string> = {
  'zh-CN': '(布局本身)',
  'en-US': '(device layout)',
  ja: '(デバイスのレイアウト)',
};
const localeOf = (language: string) => (language in REST ? language : 'zh-CN');
const groupOf = (filters: Record<string, unknown>) =>
  ((filters as unknown as QrcodeExportSpec).filter?.groupBy ?? 'day') as QrcodeGroup;

/** The report as the page shows it (the grouping of the filters), every row, in the exporter's language. */
registerExportSource(QRCODE_EXPORT_KIND, {
  sheetName: (language) => SHEET[localeOf(language)],
  columns(language, filters) {
    const l = localeOf(language);
    return [FIRST[l][groupOf(filters)], ...REST[l]].map((header, i) => ({ header, width: [28, 38, 12, 12, 22][i] }));
  },
  async *batches(services, filters, limit) {
    const spec = filters as unknown as QrcodeExportSpec;
    const until = new Date(spec.until);
    const where = await scansWhere(services.db, spec.subject, spec.filter, spec.range, until);
    const l = localeOf(spec.language);
    for (let offset = 0; ; offset += limit) {
      const rows = await groupedRows(services.db, spec.subject.entId, where, spec.filter.groupBy, { limit, offset });
      if (rows.length === 0) return;
      yield rows.map((r) => [
        r.name || (spec.filter.groupBy === 'ad' && r.key === '' ? NO_AD[l] : r.key),
        r.key,
        r.scans,
        r.devices,
        new Date(r.lastAt).toISOString().replace('T', ' ').slice(0, 19),
      ]);
      if (rows.length < limit) return;
    }
  },
});
