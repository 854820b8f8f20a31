import { PlusOutlined } from '@ant-design/icons';
import { formatTime, Perm, type SpliceRow } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import type { TableConfig } from '../../components/tableConfig';
import { SpliceDialog } from './SpliceDialog';

const FILTER_KEYS = ['keyword'] as const;

/**
 * Splicing screens (/device/splicDevice): video walls of rows x columns of devices within the
 * caller's data scope; add, edit (the grid editor) and delete. A wall is one target for
 * content once ads and layouts exist.
 */
export default function SplicePage() {
  const { t } = useTranslation('splice');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS);
  const { filters, pageRequest } = listState;
  const [dialog, setDialog] = useState<{ open: boolean; id: string | null }>({ open: false, id: null });

  const list = useQuery({
    queryKey: ['splice', 'list', pageRequest, filters],
    queryFn: ({ signal }) => call('spliceList', { ...pageRequest, keyword: filters.keyword }, { signal }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (id: string) => call('spliceDelete', { id }),
    onSuccess: () => {
      void message.success(t('toast.deleted'));
      void queryClient.invalidateQueries({ queryKey: ['splice'] });
    },
  });

  const manage = { authCode: Perm.deviceSplice, notForMonitor: true };
  const config: TableConfig<SpliceRow> = {
    id: 'splice',
    operationsLabel: t('actions'),
    columns: [
      { prop: 'name', label: t('field.name'), width: 200, ellipsis: true },
      {
        prop: 'rows',
        label: t('field.grid'),
        width: 110,
        slot: (_v: number, row: SpliceRow) => t('grid.size', { rows: row.rows, cols: row.cols }),
      },
      {
        prop: 'tileCount',
        label: t('field.tileCount'),
        width: 120,
        slot: (v: number, row: SpliceRow) => t('grid.filled', { placed: v, total: row.rows * row.cols }),
      },
      { prop: 'onlineCount', label: t('field.online'), width: 110, showThousands: true },
      {
        prop: 'scaling',
        label: t('field.scaling'),
        width: 110,
        slot: (v: boolean) => <Tag color={v ? 'processing' : 'default'}>{t(v ? 'scaling.on' : 'scaling.off')}</Tag>,
      },
      { prop: 'rotation', label: t('field.rotation'), width: 100, slot: (v: number) => t('rotation', { deg: v }) },
      { prop: 'deptName', label: t('field.dept'), width: 140, ellipsis: true },
      { prop: 'updatedAt', label: t('field.updatedAt'), width: 170, slot: (v: string) => formatTime(v) },
    ],
    operations: [
      {
        ...manage,
        key: 'edit',
        label: t('edit'),
        handler: (row) => setDialog({ open: true, id: row.id }),
        testId: (row) => `splice-edit-${row.name}`,
      },
      {
        ...manage,
        key: 'delete',
        label: t('delete'),
        danger: true,
        confirm: (row) => ({ title: t('confirm.delete', { name: row.name }) }),
        handler: (row) => remove.mutateAsync(row.id),
        testId: (row) => `splice-delete-${row.name}`,
      },
    ],
  };

  return (
    <div className="mq-view mq-splice" data-testid="splice-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={filters}
          onSearch={listState.applyFilters}
          onReset={listState.clearFilters}
          testIds={{ search: 'splice-search', reset: 'splice-reset' }}
        >
          <Form.Item name="keyword" label={t('field.name')}>
            <Input allowClear maxLength={50} data-testid="splice-filter-name" />
          </Form.Item>
        </FilterBar>
      </Card>
      <Card size="small" className="mq-list-card" title={t('title')}>
        <ListTable
          config={config}
          query={list}
          state={listState}
          toolbar={
            <NotForMonitor>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setDialog({ open: true, id: null })}
                data-testid="splice-add"
              >
                {t('add')}
              </Button>
            </NotForMonitor>
          }
          rowTestId={(row) => `splice-row-${row.name}`}
          empty={t('empty')}
          showTotal={(total) => t('total', { count: total })}
        />
      </Card>
      <SpliceDialog
        open={dialog.open}
        editingId={dialog.id}
        onClose={() => setDialog({ open: false, id: dialog.id })}
      />
    </div>
  );
}
