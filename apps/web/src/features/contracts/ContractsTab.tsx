import {
  CONTRACT_KINDS,
  CONTRACT_STATES,
  type Contract,
  type Endpoints,
  Perm,
  type Req,
  SYNC_STATES,
} from '@marquee/protocol';
import { Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { download } from '../../api/client';
import { useCallMutation } from '../../api/queries';
import { timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { useCan } from '../../session/useCan';
import { ContractStateTag, SyncStateTag } from '../sales/salesLook';
import { ContractSignDialog, fileSize } from './ContractSignDialog';

/** The sync states a manager can retry now (failed, or never sent). */
const retryable = (c: Contract) =>
  c.channel === 'esign' && c.state === 'signing' && (c.syncState === 'failed' || c.syncState === 'unsynchronized');

/**
 * The contracts list (sales.contractList): number, title, kind and subject (an order links to
 * its detail), advertiser, state, channel and the provider's sync (its last error on hover),
 * size, signer and time. A contract the caller may sign opens the sign dialog (the SHA-256 of
 * the document confirmed); every contract downloads as PDF; managers retry a failed sync.
 */
export function ContractsTab() {
  const { t } = useTranslation('contracts');
  const can = useCan();
  const manage = can(Perm.salesManage);
  const [signing, setSigning] = useState<Contract | null>(null);
  const sync = useCallMutation('salesContractSync', {
    success: (c) => t(`contract.syncAnswer.${c.syncState ?? 'unsynchronized'}`, { no: c.no }),
  });
  const list = useListPage({
    id: 'salesContracts',
    endpoint: 'salesContractList',
    filters: [
      { key: 'keyword', label: t('contract.keyword'), placeholder: t('contract.keywordHint'), width: 220 },
      {
        key: 'state',
        kind: 'select',
        label: t('contract.state'),
        placeholder: t('all'),
        width: 130,
        options: CONTRACT_STATES.map((s) => ({ value: s, label: t(`state.contract.${s}`, { ns: 'sales' }) })),
      },
      {
        key: 'kind',
        kind: 'select',
        label: t('contract.kind'),
        placeholder: t('all'),
        width: 150,
        options: CONTRACT_KINDS.map((k) => ({ value: k, label: t(`contract.kinds.${k}`) })),
      },
      {
        key: 'syncState',
        kind: 'select',
        label: t('contract.sync'),
        placeholder: t('all'),
        width: 150,
        options: SYNC_STATES.map((s) => ({ value: s, label: t(`state.sync.${s}`, { ns: 'sales' }) })),
      },
    ],
    request: (filters, page) =>
      ({ page: page.page, size: page.size, ...filters }) as Req<Endpoints['salesContractList']>,
    columns: [
      { prop: 'no', label: t('contract.no'), width: 170 },
      { prop: 'title', label: t('contract.titleColumn'), width: 240, ellipsis: true },
      {
        prop: 'kind',
        label: t('contract.kind'),
        width: 120,
        slot: (v: Contract['kind']) => t(`contract.kinds.${v}`),
      },
      {
        prop: 'subjectNo',
        label: t('contract.subject'),
        width: 170,
        slot: (v: string, row: Contract) =>
          row.kind === 'order' ? (
            <Link to={`/operate/orderDetail?id=${encodeURIComponent(row.subjectId)}`}>{v}</Link>
          ) : (
            v
          ),
      },
      { prop: 'advertiserName', label: t('contract.advertiser'), width: 150, ellipsis: true },
      {
        prop: 'state',
        label: t('contract.state'),
        width: 100,
        slot: (v: Contract['state']) => <ContractStateTag state={v} />,
      },
      {
        prop: 'syncState',
        label: t('contract.sync'),
        width: 160,
        slot: (v: Contract['syncState'], row: Contract) =>
          v === null ? (
            <Typography.Text type="secondary">{t('contract.channels.internal')}</Typography.Text>
          ) : (
            <Tooltip title={row.syncError ?? undefined}>
              <Space size={4}>
                <SyncStateTag state={v} />
                {row.syncAttempts > 0 ? (
                  <Typography.Text type="secondary">
                    {t('contract.attempts', { count: row.syncAttempts })}
                  </Typography.Text>
                ) : null}
              </Space>
            </Tooltip>
          ),
      },
      { prop: 'bytes', label: t('contract.size'), width: 90, align: 'right', slot: (v: number) => fileSize(v) },
      { prop: 'signedBy', label: t('contract.signedBy'), width: 120, slot: (v: string | null) => v ?? '-' },
      timeColumn<Contract>('signedAt', t('contract.signedAt')),
      timeColumn<Contract>('createdAt', t('contract.createdAt'), { show: false }),
    ],
    operations: [
      {
        key: 'sign',
        label: t('contract.sign'),
        isShow: (row) => row.canSign && row.state === 'signing' && row.channel === 'internal',
        notForMonitor: true,
        handler: (row) => setSigning(row),
        testId: (row) => `contract-sign-${row.id}`,
      },
      {
        key: 'download',
        label: t('contract.download'),
        handler: (row) => download('salesContractDownload', { id: row.id }, { fallbackName: `${row.no}.pdf` }),
        testId: (row) => `contract-download-${row.id}`,
      },
      {
        key: 'sync',
        label: t('contract.retrySync'),
        isShow: (row) => manage && retryable(row),
        notForMonitor: true,
        confirm: (row) => ({ title: t('contract.retrySyncConfirm', { no: row.no }) }),
        handler: (row) => sync.mutateAsync({ id: row.id }),
        testId: (row) => `contract-sync-${row.id}`,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      bare
      testPrefix="contracts"
      rowTestId={(row) => `contract-row-${row.id}`}
      empty={list.filtered ? t('contract.emptyFiltered') : t('contract.empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('retry') }}
      showTotal={(total) => t('contract.total', { count: total })}
    >
      <ContractSignDialog contract={signing} onClose={() => setSigning(null)} />
    </ListPage>
  );
}
