import { PlusOutlined } from '@ant-design/icons';
import {
  formatFen,
  formatTime,
  MARKET_KINDS,
  type MarketKind,
  PRODUCT_STATES,
  type Product,
  type ProductState,
} from '@marquee/protocol';
import { Button, Card, Empty, Input, Popconfirm, Select, Space, Table, type TableColumnsType, Tag } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { NotForMonitor } from '../../components/MonitorGuard';
import { kindLook, LookTag, productStateLook, termText } from './look';
import { sortedTerms } from './marketLogic';
import { ProductDialog } from './ProductDialog';

/**
 * The platform operator's catalogue (Perm.marketManage): every product, on sale or off shelf,
 * with its prices per term; add and edit in a dialog; put on sale or take off shelf after a
 * confirmation (orders already made keep their price).
 */
export function CatalogueTab() {
  const { t, i18n } = useTranslation(['market', 'common']);
  const [kind, setKind] = useState<MarketKind | undefined>();
  const [state, setState] = useState<ProductState | undefined>();
  const [keyword, setKeyword] = useState('');
  const [dialog, setDialog] = useState<{ open: boolean; editing: Product | null }>({ open: false, editing: null });
  const list = useCallQuery(
    'marketProductList',
    { ...(kind ? { kind } : {}), ...(state ? { state } : {}), ...(keyword ? { keyword } : {}) },
    { keepPrevious: true },
  );
  const shelf = useCallMutation('marketProductShelf', {
    success: (answer) => (answer.state === 'onSale' ? t('toast.onSale') : t('toast.offShelf')),
  });

  const columns: TableColumnsType<Product> = [
    { key: 'name', dataIndex: 'name', title: t('catalogue.name'), width: 200, ellipsis: true },
    {
      key: 'kind',
      dataIndex: 'kind',
      title: t('catalogue.kind'),
      width: 130,
      render: (v: string) => <LookTag look={kindLook(t)(v)} />,
    },
    {
      key: 'prices',
      dataIndex: 'prices',
      title: t('catalogue.prices'),
      render: (prices: Product['prices']) => (
        <Space size={[4, 4]} wrap>
          {sortedTerms(prices).map((p) => (
            <Tag key={p.months}>
              {termText(t, p.months)} {formatFen(p.price, i18n.language)}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      key: 'dataMbPerMonth',
      dataIndex: 'dataMbPerMonth',
      title: t('catalogue.dataMbPerMonth'),
      width: 130,
      render: (v: number | null) => (v ? `${v} MB` : '-'),
    },
    {
      key: 'state',
      dataIndex: 'state',
      title: t('catalogue.state'),
      width: 100,
      render: (v: string) => <LookTag look={productStateLook(t)(v)} />,
    },
    {
      key: 'updatedAt',
      dataIndex: 'updatedAt',
      title: t('catalogue.updatedAt'),
      width: 170,
      render: (v: string) => formatTime(v),
    },
    {
      key: 'actions',
      title: t('catalogue.actions'),
      width: 190,
      fixed: 'right',
      render: (_: unknown, row) => {
        const onSale = row.state === 'onSale';
        return (
          <NotForMonitor>
            <Space size={0}>
              <Button
                type="link"
                size="small"
                onClick={() => setDialog({ open: true, editing: row })}
                data-testid={`market-product-edit-${row.id}`}
              >
                {t('catalogue.editAction')}
              </Button>
              <Popconfirm
                title={
                  onSale
                    ? t('catalogue.offShelfConfirm', { name: row.name })
                    : t('catalogue.onSaleConfirm', { name: row.name })
                }
                description={onSale ? t('catalogue.offShelfHint') : undefined}
                okText={onSale ? t('catalogue.takeOff') : t('catalogue.putOn')}
                cancelText={t('action.cancel', { ns: 'common' })}
                okButtonProps={confirmOkProps(onSale)}
                onConfirm={() => shelf.mutateAsync({ id: row.id, state: onSale ? 'offShelf' : 'onSale' })}
              >
                <Button
                  type="link"
                  size="small"
                  danger={onSale}
                  data-testid={`market-product-${onSale ? 'offshelf' : 'onsale'}-${row.id}`}
                >
                  {onSale ? t('catalogue.takeOff') : t('catalogue.putOn')}
                </Button>
              </Popconfirm>
            </Space>
          </NotForMonitor>
        );
      },
    },
  ];

  return (
    <Card size="small" data-testid="market-catalogue-admin">
      <div className="mq-market-toolbar">
        <Space wrap>
          <Select
            allowClear
            placeholder={t('catalogue.kind')}
            aria-label={t('catalogue.kind')}
            style={{ width: 150 }}
            value={kind}
            onChange={setKind}
            options={MARKET_KINDS.map((k) => ({ value: k, label: kindLook(t)(k).text }))}
            data-testid="market-catalogue-filter-kind"
          />
          <Select
            allowClear
            placeholder={t('catalogue.state')}
            aria-label={t('catalogue.state')}
            style={{ width: 130 }}
            value={state}
            onChange={setState}
            options={PRODUCT_STATES.map((s) => ({ value: s, label: productStateLook(t)(s).text }))}
            data-testid="market-catalogue-filter-state"
          />
          <Input.Search
            allowClear
            maxLength={40}
            placeholder={t('catalogue.keyword')}
            aria-label={t('catalogue.keyword')}
            style={{ width: 220 }}
            onSearch={(v) => setKeyword(v.trim())}
            data-testid="market-catalogue-filter-keyword"
          />
        </Space>
        <NotForMonitor>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDialog({ open: true, editing: null })}
            data-testid="market-product-add"
          >
            {t('catalogue.add')}
          </Button>
        </NotForMonitor>
      </div>
      <Table<Product>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.data ?? []}
        loading={list.isFetching}
        pagination={false}
        scroll={{ x: 1100 }}
        onRow={(row) => ({ 'data-testid': `market-catalogue-row-${row.id}` }) as HTMLAttributes<HTMLElement>}
        locale={{ emptyText: <Empty description={t('catalogue.empty')} /> }}
      />
      <ProductDialog
        open={dialog.open}
        editing={dialog.editing}
        onClose={() => setDialog({ open: false, editing: null })}
      />
    </Card>
  );
}
