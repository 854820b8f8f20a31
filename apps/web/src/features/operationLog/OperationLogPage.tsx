import type { OperationLogItem } from '@marquee/protocol';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { timeColumn } from '../../components/columns';
import { ExportButton } from '../../components/ExportDialog';
import { ListPage, useListPage } from '../../components/listPage';
import { useSession } from '../../session/session';
import { actionLabel, moduleLabel, targetLabel } from './labels';

/** A code's options in the reader's language; one from the URL that no entry has (yet) still shows translated. */
function codeOptions(codes: readonly string[] | undefined, current: string | undefined, label: (c: string) => string) {
  const all = current && !codes?.includes(current) ? [...(codes ?? []), current] : (codes ?? []);
  return all.map((value) => ({ value, label: label(value) }));
}

/**
 * The operation log (/report/operationLog): every mutation of the product, filtered by
 * account, module, action and time range (kept in the URL), newest first, with an Excel
 * export that runs in the background and shows its progress.
 */
export default function OperationLogPage() {
  const { t, i18n } = useTranslation(['operationLog', 'common']);
  const language = i18n.language;
  const isYXF = useSession((s) => s.isYXF);
  const options = useCallQuery('operationLogOptions', {}, { silent: true, staleTime: 60_000 });
  const showEnterprise = isYXF || (options.data?.enterprises.length ?? 0) > 0;
  const [url] = useSearchParams();

  const list = useListPage({
    id: 'operationLog',
    endpoint: 'operationLogList',
    filters: [
      {
        key: 'account',
        label: t('filter.account'),
        placeholder: t('filter.accountPlaceholder'),
        testId: 'oplog-filter-account',
      },
      {
        key: 'module',
        kind: 'select',
        label: t('filter.module'),
        width: 170,
        showSearch: true,
        placeholder: t('filter.all'),
        testId: 'oplog-filter-module',
        options: codeOptions(options.data?.modules, url.get('module') ?? undefined, (c) => moduleLabel(language, c)),
      },
      {
        key: 'action',
        kind: 'select',
        label: t('filter.action'),
        width: 150,
        showSearch: true,
        placeholder: t('filter.all'),
        testId: 'oplog-filter-action',
        options: codeOptions(options.data?.actions, url.get('action') ?? undefined, (c) => actionLabel(language, c)),
      },
      {
        key: 'range',
        kind: 'range',
        from: 'from',
        to: 'to',
        time: true,
        label: t('filter.time'),
        testId: 'oplog-filter-time',
      },
      {
        key: 'entId',
        kind: 'select',
        label: t('filter.enterprise'),
        width: 220,
        showSearch: true,
        placeholder: t('filter.all'),
        options: options.data?.enterprises ?? [],
        hidden: !showEnterprise,
        testId: 'oplog-filter-enterprise',
      },
    ],
    columns: [
      timeColumn<OperationLogItem>('time', t('col.time'), { width: 180 }),
      { prop: 'loginName', label: t('col.account'), width: 160, ellipsis: true },
      // Shown where there is more than one enterprise to tell apart.
      { prop: 'entName', label: t('col.enterprise'), width: 200, ellipsis: true, show: showEnterprise },
      { prop: 'module', label: t('col.module'), width: 140, slot: (v: string) => moduleLabel(language, v) },
      { prop: 'action', label: t('col.action'), width: 140, slot: (v: string) => actionLabel(language, v) },
      {
        prop: 'target',
        label: t('col.target'),
        width: 260,
        ellipsis: true,
        slot: (_: unknown, row) =>
          row.targetType || row.targetId ? (
            <span title={row.targetId ?? ''}>
              {row.targetType ? targetLabel(language, row.targetType) : ''}
              {row.targetName || row.targetId ? ` ${row.targetName ?? row.targetId}` : ''}
            </span>
          ) : (
            '-'
          ),
      },
      { prop: 'ip', label: t('col.ip'), width: 150 },
      {
        prop: 'result',
        label: t('col.result'),
        width: 100,
        slot: (v: 'success' | 'failure') => <Tag color={v === 'success' ? 'success' : 'error'}>{t(`result.${v}`)}</Tag>,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      testPrefix="oplog"
      className="mq-oplog"
      title={t('title')}
      toolbar={
        <ExportButton
          ns="operationLog"
          testId="oplog-export"
          calls={{
            start: 'operationLogExportStart',
            status: 'operationLogExportStatus',
            download: 'operationLogExportDownload',
          }}
          request={list.request}
        />
      }
      rowTestId={() => 'oplog-row'}
      empty={t('empty')}
      showTotal={(total) => t('total', { count: total })}
    />
  );
}
