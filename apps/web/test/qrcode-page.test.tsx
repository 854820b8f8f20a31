import { Perm } from '@marquee/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareAntd } from '../src/app/AntdRoot';
import QrcodeEventPage from '../src/features/qrcode/QrcodeEventPage';
import { type Answer, fakeServer, renderPages, setUpConsoleTests, shellAnswers } from './harness';

/**
 * The QR code events page (/report/qrcodeEvent, issue 31): totals, the chart, the table per
 * day, ad, layout or device, a row narrowing the report to its object, the empty state and the
 * export; against answers of the qrcode contract.
 */
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });
beforeAll(async () => {
  await prepareAntd();
});

const ok = (payload: unknown): Answer => ({ code: 0, payload });
const series = ['2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28'].map(
  (day, i) => ({ day, scans: i === 6 ? 5 : i === 5 ? 2 : 0 }),
);

function report(data: { groupBy?: string; layoutId?: string }) {
  if (data.layoutId) {
    return ok({
      from: '2026-11-22',
      to: '2026-11-28',
      totals: { scans: 5, devices: 1 },
      series,
      total: 1,
      data: [{ key: '2026-11-28', name: '2026-11-28', scans: 5, devices: 1, lastAt: Date.UTC(2026, 10, 28, 9) }],
    });
  }
  const rows =
    data.groupBy === 'layout'
      ? [
          { key: 'lay-1', name: 'Spring board', scans: 5, devices: 1, lastAt: Date.UTC(2026, 10, 28, 9) },
          { key: 'lay-2', name: '', scans: 2, devices: 1, lastAt: Date.UTC(2026, 10, 27, 9) },
        ]
      : [
          { key: '2026-11-28', name: '2026-11-28', scans: 5, devices: 1, lastAt: Date.UTC(2026, 10, 28, 9) },
          { key: '2026-11-27', name: '2026-11-27', scans: 2, devices: 1, lastAt: Date.UTC(2026, 10, 27, 9) },
        ];
  return ok({ from: '2026-11-22', to: '2026-11-28', totals: { scans: 7, devices: 2 }, series, total: 2, data: rows });
}

describe('QR code events page', () => {
  it('shows the totals, the chart and a row per day; per layout a row narrows the report to it', async () => {
    const calls = fakeServer({ ...shellAnswers, qrcodeReport: (d) => report(d as { groupBy?: string }) });
    renderPages('/report/qrcodeEvent', { '/report/qrcodeEvent': <QrcodeEventPage /> }, [Perm.reportQrcodeEvent]);
    const rows = await screen.findAllByTestId('qrcode-row');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('2026-11-28');
    expect(screen.getByTestId('qrcode-summary').textContent).toContain('7');
    expect(await screen.findByTestId('qrcode-chart')).toBeTruthy();
    expect(calls.find((c) => c.name === 'qrcodeReport')?.data).toMatchObject({ page: 1 });

    // Per layout: a deleted layout says so; a row narrows to its layout, per day.
    const group = screen.getByTestId('qrcode-group');
    fireEvent.mouseDown(group.querySelector('input') ?? group);
    fireEvent.click(
      (await screen.findAllByText('Layout', { selector: '.ant-select-item-option-content' })).at(-1) as HTMLElement,
    );
    fireEvent.click(screen.getByTestId('qrcode-search'));
    await waitFor(() => expect(calls.some((c) => (c.data as { groupBy?: string }).groupBy === 'layout')).toBe(true));
    await screen.findByText('Spring board');
    expect(screen.getByText('(deleted)')).toBeTruthy();
    fireEvent.click(screen.getByText('Spring board'));
    await waitFor(() => expect(calls.at(-1)?.data).toMatchObject({ layoutId: 'lay-1', groupBy: 'day' }));
    const tag = await screen.findByTestId('qrcode-narrowed');
    expect(tag.textContent).toContain('One layout');
    expect(within(screen.getByTestId('qrcode-summary')).getByText('5')).toBeTruthy();
  });

  it('says when nothing was scanned, and exports what is shown', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      qrcodeReport: () =>
        ok({
          from: '2026-11-22',
          to: '2026-11-28',
          totals: { scans: 0, devices: 0 },
          series: series.map((p) => ({ ...p, scans: 0 })),
          total: 0,
          data: [],
        }),
      qrcodeExportStart: () => ok({ exportId: 'e-1', status: 'pending', total: 0, processed: 0, fileName: 'q.xlsx' }),
      qrcodeExportStatus: () => ok({ exportId: 'e-1', status: 'done', total: 0, processed: 0, fileName: 'q.xlsx' }),
    });
    renderPages('/report/qrcodeEvent', { '/report/qrcodeEvent': <QrcodeEventPage /> }, [Perm.reportQrcodeEvent]);
    expect(await screen.findByText('No QR code was scanned in these days')).toBeTruthy();
    expect(await screen.findByText('No scans in these days')).toBeTruthy();
    fireEvent.click(screen.getByTestId('qrcode-export'));
    await waitFor(() => expect(calls.some((c) => c.name === 'qrcodeExportStart')).toBe(true));
    expect(calls.find((c) => c.name === 'qrcodeExportStart')?.data).not.toHaveProperty('page');
  });
});
