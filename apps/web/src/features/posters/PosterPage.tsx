import { PlusOutlined } from '@ant-design/icons';
import { Perm, type PosterTemplateRow, RefType } from '@marquee/protocol';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Image, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { timeColumn } from '../../components/columns';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import { PermissionDialog } from '../../components/permission-dialog/PermissionDialog';
import type { TableConfig } from '../../components/tableConfig';
import { NewPosterDialog } from './NewPosterDialog';
import { posterKeys } from './queries';
import './poster.css';

const FILTER_KEYS = ['name'] as const;

/**
 * Poster templates (/poster): the data-scoped list with the last poster made as a preview,
 * and per template: edit, make a poster (fill mode), copy, share, delete (confirmed; only who
 * may manage it). New templates start from a size preset.
 */
export default function PosterPage() {
  const { t } = useTranslation('posters');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const listState = useUrlListState(FILTER_KEYS, { defaultSize: 20 });
  const { page, size, filters } = listState;
  const name = filters.name ?? '';
  const [creating, setCreating] = useState(false);
  const [sharing, setSharing] = useState<PosterTemplateRow | null>(null);

  const query = useQuery({
    queryKey: posterKeys.page({ page, size, name }),
    queryFn: ({ signal }) => call('posterTemplatePage', { page, size, name: name || undefined }, { signal }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: posterKeys.all });

  const config: TableConfig<PosterTemplateRow> = {
    id: 'posterTemplates',
    operationsLabel: t('column.actions'),
    columns: [
      {
        prop: 'thumbUrl',
        label: t('column.preview'),
        width: 96,
        slot: (value: string | null, row) =>
          value ? (
            <Image src={value} alt={row.name} width={64} height={64} className="mq-poster-thumb" />
          ) : (
            <div className="mq-poster-thumb is-empty" style={{ aspectRatio: `${row.width} / ${row.height}` }} />
          ),
      },
      {
        prop: 'name',
        label: t('column.name'),
        width: 240,
        slot: (value: string) => <Typography.Text strong>{value}</Typography.Text>,
      },
      { prop: 'size', label: t('column.size'), width: 130, slot: (_v, row) => `${row.width} × ${row.height}` },
      { prop: 'fieldCount', label: t('column.fields'), width: 90, align: 'right' },
      { prop: 'madeCount', label: t('column.made'), width: 100, align: 'right' },
      { prop: 'ownerName', label: t('column.owner'), width: 140, ellipsis: true },
      { prop: 'deptName', label: t('column.department'), width: 140, ellipsis: true },
      timeColumn('updatedAt', t('column.updatedAt'), { width: 170 }),
    ],
    operations: [
      {
        key: 'make',
        label: t('list.make'),
        handler: (row) => navigate(`/poster/editor?id=${row.id}&mode=fill`),
        testId: (row) => `poster-make-${row.name}`,
      },
      {
        key: 'edit',
        label: t('list.edit'),
        notForMonitor: true,
        handler: (row) => navigate(`/poster/editor?id=${row.id}`),
        testId: (row) => `poster-edit-${row.name}`,
      },
      {
        key: 'copy',
        label: t('list.copy'),
        notForMonitor: true,
        handler: async (row) => {
          await call('posterTemplateCopy', { id: row.id });
          message.success(t('list.copied'));
          await refresh();
        },
        testId: (row) => `poster-copy-${row.name}`,
      },
      {
        key: 'history',
        label: t('list.history'),
        handler: (row) => navigate(`/poster/tplHistory?templateId=${row.id}`),
      },
      {
        key: 'share',
        label: t('list.share'),
        authCode: Perm.dataAllocation,
        disabled: (row) => (row.hasPermission ? false : t('list.noManage')),
        handler: (row) => setSharing(row),
        testId: (row) => `poster-share-${row.name}`,
      },
      {
        key: 'delete',
        label: t('list.delete'),
        danger: true,
        notForMonitor: true,
        disabled: (row) => (row.hasPermission ? false : t('list.noManage')),
        confirm: (row) => ({
          title: t('list.deleteTitle', { name: row.name }),
          description: row.madeCount > 0 ? t('list.deleteMade', { count: row.madeCount }) : undefined,
        }),
        handler: async (row) => {
          await call('posterTemplateDelete', { id: row.id });
          message.success(t('list.deleted'));
          await refresh();
        },
        testId: (row) => `poster-delete-${row.name}`,
      },
    ],
  };

  return (
    <div className="mq-view mq-poster" data-testid="poster-page">
      <Card>
        <FilterBar values={filters} onSearch={listState.applyFilters} onReset={listState.clearFilters}>
          <Form.Item name="name" label={t('filter.name')}>
            <Input
              maxLength={50}
              placeholder={t('filter.namePlaceholder')}
              style={{ width: 240 }}
              data-testid="poster-filter-name"
            />
          </Form.Item>
        </FilterBar>
      </Card>
      <Card title={t('title')}>
        <ListTable
          config={config}
          query={query}
          state={listState}
          toolbar={
            <NotForMonitor>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setCreating(true)}
                data-testid="poster-create"
              >
                {t('list.create')}
              </Button>
            </NotForMonitor>
          }
          empty={t('list.empty')}
          rowTestId={(row) => `poster-row-${row.name}`}
          showTotal={(total) => t('list.total', { count: total })}
        />
      </Card>
      <NewPosterDialog open={creating} onClose={() => setCreating(false)} />
      <PermissionDialog
        open={sharing !== null}
        refType={RefType.poster}
        refIds={sharing ? [sharing.id] : []}
        names={sharing ? [sharing.name] : []}
        onClose={() => setSharing(null)}
        onDone={() => void refresh()}
      />
    </div>
  );
}
