import { ShareAltOutlined } from '@ant-design/icons';
import { formatTime, Perm, RefType, TEMPLATE_PAGE_SIZE, type TemplateRow } from '@marquee/protocol';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Input, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { PermissionDialog } from '../../components/permission-dialog/PermissionDialog';
import { useCan } from '../../shell/useCan';
import './template.css';

const FILTER_KEYS = ['name'] as const;

export const templateKeys = {
  all: ['template', 'page'] as const,
  page: (q: { page: number; size: number; name: string }) => ['template', 'page', q] as const,
};

/**
 * The template page (route /template, spec section 2 'Template page'): a name filter with
 * clear and search, the data-scoped list with row selection (rows the caller may not share
 * cannot be selected), a share action per row and a share button for the selection behind
 * yxf_new_data_allocation, disabled while nothing is selected. Filters live in the URL.
 */
export default function TemplatePage() {
  const { t } = useTranslation('template');
  const can = useCan();
  const canShare = can(Perm.dataAllocation);
  const queryClient = useQueryClient();
  // Spec section 9: the template list pages by 20.
  const listState = useUrlListState(FILTER_KEYS, { defaultSize: TEMPLATE_PAGE_SIZE });
  const { page, size, filters } = listState;
  const name = filters.name ?? '';
  const [selected, setSelected] = useState<string[]>([]);
  const [sharing, setSharing] = useState<Pick<TemplateRow, 'id' | 'name'>[] | null>(null);
  // The names of the selected rows (kept across pages, as the selection is) for the dialog's title.
  const [selectedNames, setSelectedNames] = useState<Record<string, string>>({});

  const query = useQuery({
    queryKey: templateKeys.page({ page, size, name }),
    queryFn: () => call('templatePage', { page, size, name: name || undefined }),
    placeholderData: keepPreviousData,
  });

  // A new search starts a new selection.
  const search = (values: typeof filters) => {
    setSelected([]);
    listState.applyFilters(values);
  };
  const clear = () => {
    setSelected([]);
    listState.clearFilters();
  };

  const columns: ColumnsType<TemplateRow> = [
    {
      title: t('column.name'),
      dataIndex: 'name',
      render: (value: string, row) => (
        <div className="mq-template-name">
          <Typography.Text strong>{value}</Typography.Text>
          <Typography.Text type="secondary" className="mq-template-meta">
            {row.ownerName}
            {row.deptName ? ` · ${row.deptName}` : ''}
          </Typography.Text>
        </div>
      ),
    },
    { title: t('column.owner'), dataIndex: 'ownerName', width: 180 },
    { title: t('column.department'), dataIndex: 'deptName', width: 180 },
    {
      title: t('column.size'),
      key: 'size',
      width: 130,
      render: (_v, row) => `${row.width} × ${row.height}`,
    },
    {
      title: t('column.updatedAt'),
      dataIndex: 'updatedAt',
      width: 180,
      render: (v: string) => formatTime(v),
    },
  ];
  if (canShare) {
    columns.push({
      title: t('column.actions'),
      key: 'actions',
      width: 120,
      render: (_v, row) =>
        row.hasPermission ? (
          <Button
            type="link"
            size="small"
            icon={<ShareAltOutlined />}
            onClick={() => setSharing([row])}
            data-testid={`template-share-${row.name}`}
          >
            {t('share')}
          </Button>
        ) : (
          <Tooltip title={t('share.noPermission')}>
            <Button type="link" size="small" disabled data-testid={`template-share-${row.name}`}>
              {t('share')}
            </Button>
          </Tooltip>
        ),
    });
  }

  return (
    <div className="mq-view mq-template" data-testid="template-page">
      <Card className="mq-template-filters">
        <FilterBar
          values={filters}
          onSearch={search}
          onReset={clear}
          testIds={{ search: 'template-filter-search', reset: 'template-filter-clear' }}
          resetIcon={null}
        >
          <Form.Item name="name" label={t('filter.name')}>
            <Input
              allowClear={false}
              maxLength={100}
              placeholder={t('filter.namePlaceholder')}
              data-testid="template-filter-name"
              style={{ width: 240 }}
            />
          </Form.Item>
        </FilterBar>
      </Card>
      <Card
        className="mq-template-list"
        title={t('title')}
        extra={
          canShare ? (
            <Button
              type="primary"
              icon={<ShareAltOutlined />}
              disabled={selected.length === 0}
              onClick={() => setSharing(selected.map((id) => ({ id, name: selectedNames[id] ?? id })))}
              data-testid="template-share"
            >
              {selected.length > 0 ? t('share.selected', { count: selected.length }) : t('share')}
            </Button>
          ) : null
        }
      >
        <ListTable
          query={query}
          state={listState}
          columns={columns}
          empty={t('empty')}
          emptyImage={Empty.PRESENTED_IMAGE_SIMPLE}
          rowTestId={(row) => `template-row-${row.name}`}
          rowSelection={
            canShare
              ? {
                  selectedRowKeys: selected,
                  preserveSelectedRowKeys: true,
                  onChange: (keys, rows) => {
                    setSelected(keys.map(String));
                    setSelectedNames((known) => ({
                      ...known,
                      ...Object.fromEntries(rows.filter(Boolean).map((r) => [r.id, r.name])),
                    }));
                  },
                  // Spec section 5: rows whose has-permission is falsy cannot be selected.
                  getCheckboxProps: (row) =>
                    ({
                      disabled: !row.hasPermission,
                      'aria-label': t('selection.label', { name: row.name }),
                      'data-testid': `template-select-${row.name}`,
                    }) as object,
                }
              : undefined
          }
          showTotal={(total) => t('total', { count: total })}
        />
      </Card>
      <PermissionDialog
        open={sharing !== null}
        refType={RefType.template}
        refIds={sharing?.map((s) => s.id) ?? []}
        names={sharing?.map((s) => s.name) ?? []}
        onClose={() => setSharing(null)}
        onDone={() => {
          setSelected([]);
          void queryClient.invalidateQueries({ queryKey: templateKeys.all });
        }}
      />
    </div>
  );
}
