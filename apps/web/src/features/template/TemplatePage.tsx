import { SearchOutlined, ShareAltOutlined } from '@ant-design/icons';
import { PAGE_SIZES, Perm, RefType, type TemplateRow } from '@marquee/protocol';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Input, Space, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { PermissionDialog } from '../../components/permission-dialog/PermissionDialog';
import { useCan } from '../../shell/useCan';
import { useTemplateListState } from './useTemplateListState';
import './template.css';

const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

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
  const { page, size, name, update } = useTemplateListState();
  const [draft, setDraft] = useState(name);
  const [selected, setSelected] = useState<string[]>([]);
  const [sharing, setSharing] = useState<string[] | null>(null);

  useEffect(() => setDraft(name), [name]);

  const query = useQuery({
    queryKey: templateKeys.page({ page, size, name }),
    queryFn: () => call('templatePage', { page, size, name: name || undefined }),
    placeholderData: keepPreviousData,
  });

  const search = () => {
    setSelected([]);
    update({ name: draft.trim(), page: 1 });
  };
  const clear = () => {
    setDraft('');
    setSelected([]);
    update({ name: '', page: 1 });
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
      render: (v: string) => dayjs(v).format(TIME_FORMAT),
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
            onClick={() => setSharing([row.id])}
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

  const data = query.data;
  return (
    <div className="mq-view mq-template" data-testid="template-page">
      <Card className="mq-template-filters">
        <Form layout="inline" onFinish={search}>
          <Form.Item label={t('filter.name')}>
            <Input
              allowClear={false}
              value={draft}
              maxLength={100}
              placeholder={t('filter.namePlaceholder')}
              onChange={(e) => setDraft(e.target.value)}
              data-testid="template-filter-name"
              style={{ width: 240 }}
            />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="template-filter-search">
                {t('filter.search')}
              </Button>
              <Button onClick={clear} data-testid="template-filter-clear">
                {t('filter.clear')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
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
              onClick={() => setSharing(selected)}
              data-testid="template-share"
            >
              {selected.length > 0 ? t('share.selected', { count: selected.length }) : t('share')}
            </Button>
          ) : null
        }
      >
        <Table<TemplateRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={data?.data ?? []}
          loading={query.isFetching}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} /> }}
          onRow={(row) => ({ 'data-testid': `template-row-${row.name}` }) as React.HTMLAttributes<HTMLElement>}
          rowSelection={
            canShare
              ? {
                  selectedRowKeys: selected,
                  preserveSelectedRowKeys: true,
                  onChange: (keys) => setSelected(keys.map(String)),
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
          pagination={{
            current: page,
            pageSize: size,
            total: data?.total ?? 0,
            pageSizeOptions: PAGE_SIZES.map(String),
            showSizeChanger: true,
            showQuickJumper: true,
            showTotal: (total) => t('total', { total }),
            onChange: (p, s) => update({ page: s !== size ? 1 : p, size: s }),
          }}
        />
      </Card>
      <PermissionDialog
        open={sharing !== null}
        refType={RefType.template}
        refIds={sharing ?? []}
        onClose={() => setSharing(null)}
        onDone={() => {
          setSelected([]);
          void queryClient.invalidateQueries({ queryKey: templateKeys.all });
        }}
      />
    </div>
  );
}
