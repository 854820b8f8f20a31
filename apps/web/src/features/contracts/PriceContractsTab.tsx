import { type Endpoints, formatFen, Perm, type PriceContract, type Req } from '@marquee/protocol';
import { Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { useCan } from '../../session/useCan';
import { ContractStateTag, discountText } from '../sales/salesLook';
import { ContractDrawDialog, type DrawSubject } from './ContractDrawDialog';
import { PriceContractDialog } from './PriceContractDialog';

/**
 * The advertisers' price contracts (sales.priceContractList): number, name, advertiser, the
 * discount (0..1 and as text), negotiated slot prices, validity, whether it is in force, its
 * contract document. Managers add, edit (not once its document is signed), delete (one no order
 * used) and draw up its contract; an advertiser sees its own.
 */
export function PriceContractsTab() {
  const { t, i18n } = useTranslation('contracts');
  const language = i18n.language;
  const can = useCan();
  const manage = can(Perm.salesManage);
  const [, setParams] = useSearchParams();
  const [dialog, setDialog] = useState<{ editing: PriceContract | null } | null>(null);
  const [drawing, setDrawing] = useState<DrawSubject | null>(null);
  const remove = useCallMutation('salesPriceContractDelete', { success: t('price.deleted') });
  const openContract = (no: string) => setParams({ tab: 'contracts', keyword: no }, { replace: false });
  const list = useListPage({
    id: 'salesPriceContracts',
    endpoint: 'salesPriceContractList',
    filters: [
      { key: 'keyword', label: t('price.keyword'), placeholder: t('price.keywordHint'), width: 220 },
      {
        key: 'active',
        kind: 'select',
        label: t('price.inForce'),
        placeholder: t('all'),
        width: 140,
        param: (v) => v === 'true',
        options: [
          { value: 'true', label: t('price.active') },
          { value: 'false', label: t('price.inactive') },
        ],
      },
    ],
    request: (filters, page) =>
      ({ page: page.page, size: page.size, ...filters }) as Req<Endpoints['salesPriceContractList']>,
    columns: [
      { prop: 'number', label: t('price.number'), width: 150 },
      { prop: 'name', label: t('price.name'), width: 180, ellipsis: true },
      { prop: 'advertiserName', label: t('price.advertiser'), width: 150, ellipsis: true },
      {
        prop: 'discount',
        label: t('price.discount'),
        width: 140,
        slot: (v: number) => `${v.toFixed(2)} (${discountText(v, language)})`,
      },
      {
        prop: 'slotPrices',
        label: t('price.slotPrices'),
        width: 150,
        slot: (v: PriceContract['slotPrices']) =>
          v.length === 0 ? (
            t('price.noSlotPrices')
          ) : (
            <Tooltip
              title={v.map((p) => (
                <div key={p.slotId}>
                  {p.slotName}: {formatFen(p.unitPrice, language)}
                </div>
              ))}
            >
              <span>{t('price.slotPriceCount', { count: v.length })}</span>
            </Tooltip>
          ),
      },
      {
        prop: 'validFrom',
        label: t('price.validity'),
        width: 200,
        slot: (_: unknown, row: PriceContract) => `${row.validFrom} – ${row.validTo}`,
      },
      {
        prop: 'active',
        label: t('price.inForce'),
        width: 110,
        slot: (_: unknown, row: PriceContract) =>
          row.active ? (
            <Tag color="success">{t('price.active')}</Tag>
          ) : (
            <Tag>{row.enabled ? t('price.outOfPeriod') : t('price.disabled')}</Tag>
          ),
      },
      {
        prop: 'contractState',
        label: t('price.contract'),
        width: 110,
        slot: (v: PriceContract['contractState']) => (v ? <ContractStateTag state={v} /> : '-'),
      },
      timeColumn<PriceContract>('createdAt', t('contract.createdAt'), { show: false }),
    ],
    operations: [
      {
        key: 'edit',
        label: t('edit'),
        authCode: Perm.salesManage,
        notForMonitor: true,
        disabled: (row) => (row.contractState === 'signed' ? t('price.signedNoEdit') : false),
        handler: (row) => setDialog({ editing: row }),
        testId: (row) => `price-edit-${row.id}`,
      },
      {
        key: 'draw',
        label: t('price.draw'),
        authCode: Perm.salesManage,
        notForMonitor: true,
        isShow: (row) => row.contractId === null,
        handler: (row) => setDrawing({ kind: 'priceContract', id: row.id, no: row.number }),
        testId: (row) => `price-draw-${row.id}`,
      },
      {
        key: 'contract',
        label: t('price.openContract'),
        isShow: (row) => row.contractId !== null,
        handler: (row) => openContract(row.number),
        testId: (row) => `price-contract-${row.id}`,
      },
      {
        key: 'delete',
        label: t('delete'),
        authCode: Perm.salesManage,
        notForMonitor: true,
        danger: true,
        confirm: (row) => ({ title: t('price.deleteConfirm', { name: row.name }), description: t('price.deleteHint') }),
        handler: (row) => remove.mutateAsync({ id: row.id }),
        testId: (row) => `price-delete-${row.id}`,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      bare
      testPrefix="price-contracts"
      rowTestId={(row) => `price-row-${row.id}`}
      empty={list.filtered ? t('price.emptyFiltered') : t('price.empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('retry') }}
      showTotal={(total) => t('price.total', { count: total })}
      toolbar={
        manage ? (
          <Space>
            <AddButton
              label={t('price.add')}
              notForMonitor
              onClick={() => setDialog({ editing: null })}
              testId="price-add"
            />
          </Space>
        ) : undefined
      }
    >
      <PriceContractDialog open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
      <ContractDrawDialog subject={drawing} onClose={() => setDrawing(null)} onDrawn={openContract} />
    </ListPage>
  );
}
