import { and, lte, type SQL } from 'drizzle-orm';
import { devices } from '../../db/schema/index.js';
import { devicesNewestFirst } from '../deviceIo/exportSource.js';
import { registerExportSource } from '../operationLog/exportJob.js';
import {
  DEVICE_REPORT_EXPORT_KIND,
  type DeviceReportExportSpec,
  figuresOf,
  reportDeviceWhere,
  reportRow,
} from './service.js';

const HEADERS: Record<string, string[]> = {
  'zh-CN': [
    '设备编号',
    '设备名称',
    '部门',
    '在线时长(小时)',
    '播放次数',
    '完整播放',
    '播放时长(分钟)',
    '广告数',
    '下载成功',
    '下载失败',
    '平均下载用时(秒)',
    '满刊率(%)',
  ],
  'en-US': [
    'Number',
    'Name',
    'Department',
    'Online (h)',
    'Plays',
    'Completed',
    'Play time (min)',
    'Ads',
    'Downloads succeeded',
    'Downloads failed',
    'Avg. download time (s)',
    'Full rate (%)',
  ],
  ja: [
    'デバイス番号',
    'デバイス名',
    '部署',
    'オンライン時間(時間)',
    '再生回数',
    '完全再生',
    '再生時間(分)',
    '広告数',
    'ダウンロード成功',
    'ダウンロード失敗',
    '平均ダウンロード時間(秒)',
    'フル稼働率(%)',
  ],
};
const SHEET: Record<string, string> = { 'zh-CN': '设备报表', 'en-US': 'Device report', ja: 'デバイスレポート' };
const localeOf = (language: string) => (language in HEADERS ? language : 'zh-CN');

/** The device report as the export writes it: every device of the filters, newest first, like the page. */
registerExportSource(DEVICE_REPORT_EXPORT_KIND, {
  sheetName: (language) => SHEET[localeOf(language)],
  columns(language) {
    const widths = [20, 28, 20, 16, 12, 12, 16, 10, 16, 14, 18, 14];
    return HEADERS[localeOf(language)].map((header, i) => ({ header, width: widths[i] }));
  },
  async *batches(services, filters, limit) {
    const spec = filters as unknown as DeviceReportExportSpec;
    const until = new Date(spec.until);
    const where = and(
      await reportDeviceWhere(services.db, spec.subject, spec.filter, until),
      lte(devices.createdAt, until),
    ) as SQL;
    for await (const batch of devicesNewestFirst(services.db, where, limit)) {
      const rows = batch.map(({ device, deptName }) => ({ ...device, deptName }));
      const figures = await figuresOf(
        services.db,
        spec.subject.entId,
        rows.map((r) => r.id),
        spec.range,
        until,
      );
      yield rows.map((r) => {
        const row = reportRow(r, figures.get(r.id), spec.filter.fullCount ?? 8);
        return [
          row.number ?? '',
          row.name,
          row.deptName,
          Math.round((row.onlineSec / 3600) * 100) / 100,
          row.plays,
          row.completed,
          Math.round((row.playMs / 60_000) * 100) / 100,
          row.ads,
          row.downloads,
          row.downloadsFailed,
          row.downloadSec ?? '',
          row.fullRate,
        ];
      });
    }
  },
});
