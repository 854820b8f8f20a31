import {
  AppstoreOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  DragOutlined,
  LinkOutlined,
  ShareAltOutlined,
  TableOutlined,
} from '@ant-design/icons';
import { formatSize, formatTime, MATERIAL_TYPES, type MaterialType, Perm, RefType } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Pagination,
  Popconfirm,
  Segmented,
  Select,
  Space,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { confirmOkProps } from '../../components/ConfirmAction';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { listPagination, useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import { PermissionDialog } from '../../components/permission-dialog/PermissionDialog';
import type { TableConfig, TableOperation } from '../../components/tableConfig';
import { useCan } from '../../session/useCan';
import { MATERIAL_KEYS, type MaterialListRequest, useCategories, useFolderTree } from './api';
import { CategoryList } from './CategoryList';
import { formatDuration } from './checks';
import { FolderTree, findFolder } from './FolderTree';
import { MaterialMoveDialog, MaterialRenameDialog, MediaDialog } from './MaterialDialogs';
import { MaterialGrid, StatusTag, TypeIcon } from './MaterialGrid';
import { PreviewDialog } from './PreviewDialog';
import { StorageUsage } from './StorageUsage';
import type { MaterialRow } from './types';
import { UploadDialog } from './UploadDialog';
import './materials.css';

const FILTER_KEYS = [
  'name',
  'type',
  'folderId',
  'categoryId',
  'uploaderId',
  'from',
  'to',
  'minSize',
  'maxSize',
  'duplicates',
] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

interface FilterValues {
  name?: string;
  type?: string;
  categoryId?: string;
  uploaderId?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
  minSize?: number | null;
  maxSize?: number | null;
  duplicates?: boolean;
}

const MB = 1024 * 1024;

/**
 * The material library (/advert/material, spec sections 1, 5, 7 and 8): the folder tree and
 * the categories on the left, the storage usage under them; on the right the filters (name,
 * type, category, uploader, date range, size in MB, duplicates only), then the materials of
 * the chosen folder as a grid of thumbnails or as a table, with the list's pagination.
 * Upload (a folder first), add a web page or live stream, preview, rename, move, delete
 * (asked first; the server refuses one in use), share (ref-type '3'; a folder's is '4'), and
 * the same for a selection. Filters, folder and view live in the URL.
 */
export default function MaterialPage() {
  const { t } = useTranslation(['material', 'common']);
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const can = useCan();
  const canManage = can(Perm.advMaterial);
  const listState = useUrlListState(FILTER_KEYS);
  const { filters, page, size } = listState;
  const folders = useFolderTree();
  const [view, setView] = useState<'grid' | 'table'>('grid');
  const [selected, setSelected] = useState<string[]>([]);
  const [previewing, setPreviewing] = useState<MaterialRow | null>(null);
  const [renaming, setRenaming] = useState<MaterialRow | null>(null);
  const [moving, setMoving] = useState<string[] | null>(null);
  const [sharing, setSharing] = useState<{ refType: string; ids: string[]; names: string[] } | null>(null);
  const [uploading, setUploading] = useState(false);
  const [addingMedia, setAddingMedia] = useState(false);

  const request: MaterialListRequest = {
    page,
    size,
    name: filters.name,
    type: filters.type as MaterialType | undefined,
    folderId: filters.folderId,
    categoryId: filters.categoryId,
    uploaderId: filters.uploaderId,
    from: filters.from,
    to: filters.to,
    minSize: filters.minSize ? Math.round(Number(filters.minSize) * MB) : undefined,
    maxSize: filters.maxSize ? Math.round(Number(filters.maxSize) * MB) : undefined,
    duplicatesOnly: filters.duplicates === '1',
  };
  const list = useQuery({
    queryKey: MATERIAL_KEYS.list(request),
    queryFn: ({ signal }) => call('materialList', request, { signal }),
    placeholderData: keepPreviousData,
    // While a material is being processed its thumbnail and duration are on the way.
    refetchInterval: (q) => (q.state.data?.data.some((r) => r.status === 'processing') ? 3000 : false),
  });
  const rows = list.data?.data ?? [];
  const currentFolder = findFolder(folders.data ?? [], filters.folderId);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: MATERIAL_KEYS.all });
  const remove = useMutation({
    mutationFn: (ids: string[]) => call('materialDelete', { ids }),
    onSuccess: (_a, ids) => {
      setSelected((s) => s.filter((id) => !ids.includes(id)));
      void message.success(t('toast.deleted', { count: ids.length }));
      refresh();
    },
  });
  const confirmDelete = (row: MaterialRow) =>
    modal.confirm({
      title: t('confirm.delete', { name: row.name }),
      content: t('confirm.deleteHint'),
      okText: t('action.delete'),
      cancelText: t('action.cancel'),
      okButtonProps: confirmOkProps(true),
      onOk: () => remove.mutateAsync([row.id]).catch(() => undefined),
    });

  const selectFolder = (id: string | undefined) => {
    setSelected([]);
    listState.applyFilters({ ...filters, folderId: id });
  };
  const startUpload = () => {
    // Spec section 5: a folder must be chosen before upload.
    if (!filters.folderId) {
      void message.warning(t('upload.chooseFolder'));
      return;
    }
    setUploading(true);
  };

  const manage = { authCode: Perm.advMaterial, notForMonitor: true };
  const manageable = (row: MaterialRow) => row.hasPermission;
  const operations: TableOperation<MaterialRow>[] = [
    { key: 'preview', label: t('action.preview'), handler: setPreviewing, testId: (r) => `material-preview-${r.name}` },
    {
      ...manage,
      key: 'rename',
      label: t('action.rename'),
      isShow: manageable,
      handler: setRenaming,
      testId: (r) => `material-rename-${r.name}`,
    },
    {
      ...manage,
      key: 'move',
      label: t('action.move'),
      isShow: manageable,
      handler: (r) => setMoving([r.id]),
      testId: (r) => `material-move-${r.name}`,
    },
    {
      key: 'share',
      label: t('action.share'),
      authCode: Perm.dataAllocation,
      isShow: manageable,
      handler: (r) => setSharing({ refType: RefType.material, ids: [r.id], names: [r.name] }),
      testId: (r) => `material-share-${r.name}`,
    },
    {
      ...manage,
      key: 'delete',
      label: t('action.delete'),
      danger: true,
      isShow: manageable,
      confirm: (r) => ({ title: t('confirm.delete', { name: r.name }), description: t('confirm.deleteHint') }),
      handler: (r) => remove.mutateAsync([r.id]),
      testId: (r) => `material-delete-${r.name}`,
    },
  ];
  const config: TableConfig<MaterialRow> = {
    id: 'materials',
    operationsLabel: t('column.actions'),
    columns: [
      {
        prop: 'name',
        label: t('column.name'),
        width: 260,
        slot: (v: string, row) => (
          <Space size={6} className="mq-material-cell-name">
            <TypeIcon row={row} />
            <span>{v}</span>
          </Space>
        ),
      },
      { prop: 'type', label: t('column.type'), width: 100, slot: (v: string) => t(`type.${v}`) },
      {
        prop: 'size',
        label: t('column.size'),
        width: 110,
        align: 'right',
        slot: (v: number, row) => (row.type === 'web' || row.type === 'stream' ? '-' : formatSize(v)),
      },
      {
        prop: 'width',
        label: t('column.resolution'),
        width: 120,
        slot: (_v: number, row) => (row.width && row.height ? `${row.width}×${row.height}` : '-'),
      },
      { prop: 'duration', label: t('column.duration'), width: 100, slot: (v: number) => formatDuration(v) || '-' },
      { prop: 'folderName', label: t('column.folder'), width: 140, ellipsis: true },
      { prop: 'categoryName', label: t('column.category'), width: 120, ellipsis: true, show: false },
      { prop: 'uploaderName', label: t('column.uploader'), width: 120, ellipsis: true },
      {
        prop: 'status',
        label: t('column.status'),
        width: 140,
        slot: (_v: string, row) =>
          row.status === 'processing' || row.status === 'invalid' ? <StatusTag row={row} /> : t('status.ready'),
      },
      { prop: 'createdAt', label: t('column.createdAt'), width: 170, slot: (v: string) => formatTime(v) },
    ],
    operations,
  };

  const filterValues = useMemo<FilterValues>(
    () => ({
      name: filters.name,
      type: filters.type,
      categoryId: filters.categoryId,
      uploaderId: filters.uploaderId,
      range:
        filters.from || filters.to
          ? [filters.from ? dayjs(filters.from) : null, filters.to ? dayjs(filters.to) : null]
          : null,
      minSize: filters.minSize ? Number(filters.minSize) : null,
      maxSize: filters.maxSize ? Number(filters.maxSize) : null,
      duplicates: filters.duplicates === '1',
    }),
    [filters],
  );
  const search = (v: FilterValues) => {
    setSelected([]);
    const next: Partial<Record<FilterKey, string | undefined>> = {
      name: v.name,
      type: v.type,
      folderId: filters.folderId,
      categoryId: v.categoryId,
      uploaderId: v.uploaderId,
      from: v.range?.[0] ? v.range[0].startOf('day').toISOString() : undefined,
      to: v.range?.[1] ? v.range[1].endOf('day').toISOString() : undefined,
      minSize: v.minSize ? String(v.minSize) : undefined,
      maxSize: v.maxSize ? String(v.maxSize) : undefined,
      duplicates: v.duplicates ? '1' : undefined,
    };
    listState.applyFilters(next);
  };
  const reset = () => {
    setSelected([]);
    listState.applyFilters({ folderId: filters.folderId });
  };
  const filtered = FILTER_KEYS.some((k) => k !== 'folderId' && filters[k]);
  const emptyText = filtered ? t('emptyFiltered') : t('empty');

  const selectedNames = rows.filter((r) => selected.includes(r.id)).map((r) => r.name);
  const toolbar = (
    <Space wrap>
      {canManage ? (
        <NotForMonitor>
          <Space wrap>
            <Button type="primary" icon={<CloudUploadOutlined />} onClick={startUpload} data-testid="material-upload">
              {t('action.upload')}
            </Button>
            <Button icon={<LinkOutlined />} onClick={() => setAddingMedia(true)} data-testid="material-add-media">
              {t('action.addMedia')}
            </Button>
            <Button
              icon={<DragOutlined />}
              disabled={selected.length === 0}
              onClick={() => setMoving(selected)}
              data-testid="material-move-selected"
            >
              {t('action.moveSelected', { count: selected.length })}
            </Button>
            <Popconfirm
              title={t('confirm.deleteSelected', { count: selected.length })}
              description={t('confirm.deleteHint')}
              okText={t('action.delete')}
              cancelText={t('action.cancel')}
              okButtonProps={confirmOkProps(true)}
              disabled={selected.length === 0}
              onConfirm={() => remove.mutateAsync(selected).catch(() => undefined)}
            >
              <Button
                danger
                icon={<DeleteOutlined />}
                disabled={selected.length === 0}
                data-testid="material-delete-selected"
              >
                {t('action.deleteSelected', { count: selected.length })}
              </Button>
            </Popconfirm>
          </Space>
        </NotForMonitor>
      ) : null}
      {can(Perm.dataAllocation) ? (
        <>
          <Button
            icon={<ShareAltOutlined />}
            disabled={selected.length === 0}
            onClick={() => setSharing({ refType: RefType.material, ids: selected, names: selectedNames })}
            data-testid="material-share-selected"
          >
            {t('action.shareSelected', { count: selected.length })}
          </Button>
          {currentFolder ? (
            <Button
              icon={<ShareAltOutlined />}
              onClick={() =>
                setSharing({ refType: RefType.materialFolder, ids: [currentFolder.id], names: [currentFolder.name] })
              }
              data-testid="folder-share"
            >
              {t('action.shareFolder')}
            </Button>
          ) : null}
        </>
      ) : null}
    </Space>
  );

  const gridActions = (row: MaterialRow) => (
    <Space size={0}>
      {operations
        .filter((op) => op.key !== 'preview' && (!op.authCode || can(op.authCode)) && (!op.isShow || op.isShow(row)))
        .map((op) =>
          op.key === 'delete' ? (
            <Button
              key={op.key}
              type="link"
              size="small"
              danger
              onClick={() => confirmDelete(row)}
              data-testid={op.testId?.(row)}
            >
              {op.label}
            </Button>
          ) : (
            <Button
              key={op.key}
              type="link"
              size="small"
              onClick={() => void op.handler(row)}
              data-testid={op.testId?.(row)}
            >
              {op.label}
            </Button>
          ),
        )}
    </Space>
  );

  return (
    <div className="mq-view mq-materials" data-testid="material-page">
      <div className="mq-material-layout">
        <aside className="mq-material-side">
          <Card size="small" title={t('folder.title')} className="mq-material-side-card">
            <FolderTree selected={filters.folderId} onSelect={selectFolder} canManage={canManage} />
          </Card>
          <Card size="small" title={t('category.title')} className="mq-material-side-card">
            <CategoryList
              canManage={canManage}
              selected={filters.categoryId}
              onSelect={(id) => {
                setSelected([]);
                listState.applyFilters({ ...filters, categoryId: id });
              }}
            />
          </Card>
          <Card size="small" title={t('usage.title')} className="mq-material-side-card">
            <StorageUsage />
          </Card>
        </aside>
        <div className="mq-material-main">
          <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
            <FilterBar
              values={filterValues}
              onSearch={search}
              onReset={reset}
              testIds={{ search: 'material-search', reset: 'material-reset' }}
            >
              <Form.Item name="name" label={t('field.name')}>
                <Input allowClear style={{ width: 160 }} data-testid="material-filter-name" />
              </Form.Item>
              <Form.Item name="type" label={t('field.type')}>
                <Select
                  allowClear
                  style={{ width: 120 }}
                  placeholder={t('all')}
                  options={MATERIAL_TYPES.map((type) => ({ value: type, label: t(`type.${type}`) }))}
                  data-testid="material-filter-type"
                />
              </Form.Item>
              <CategoryFilter />
              {can(Perm.dataAllocation) ? <UploaderFilter /> : null}
              <Form.Item name="range" label={t('field.createdAt')}>
                <DatePicker.RangePicker allowEmpty={[true, true]} data-testid="material-filter-range" />
              </Form.Item>
              <Form.Item label={t('field.sizeMb')}>
                <Space.Compact>
                  <Form.Item name="minSize" noStyle>
                    <InputNumber
                      min={0}
                      placeholder={t('field.min')}
                      style={{ width: 90 }}
                      aria-label={t('field.min')}
                    />
                  </Form.Item>
                  <Form.Item name="maxSize" noStyle>
                    <InputNumber
                      min={0}
                      placeholder={t('field.max')}
                      style={{ width: 90 }}
                      aria-label={t('field.max')}
                    />
                  </Form.Item>
                </Space.Compact>
              </Form.Item>
              <Form.Item name="duplicates" valuePropName="checked">
                <Checkbox data-testid="material-filter-duplicates">{t('field.duplicatesOnly')}</Checkbox>
              </Form.Item>
            </FilterBar>
          </Card>
          <Card
            size="small"
            className="mq-list-card"
            title={
              <span data-testid="material-folder-title">{currentFolder ? currentFolder.name : t('folder.all')}</span>
            }
            extra={
              <Segmented
                value={view}
                onChange={(v) => setView(v as 'grid' | 'table')}
                options={[
                  { value: 'grid', icon: <AppstoreOutlined />, label: t('view.grid') },
                  { value: 'table', icon: <TableOutlined />, label: t('view.table') },
                ]}
                data-testid="material-view"
              />
            }
          >
            {view === 'table' ? (
              <ListTable
                config={config}
                query={list}
                state={listState}
                toolbar={toolbar}
                rowSelection={{
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys.map(String)),
                  getCheckboxProps: (row) => ({ disabled: !manageable(row), 'aria-label': row.name }) as object,
                }}
                onRow={(row) => ({
                  tabIndex: 0,
                  onDoubleClick: () => setPreviewing(row),
                  onKeyDown: (e) => {
                    if (e.target !== e.currentTarget) return;
                    if (e.key === 'Enter') setPreviewing(row);
                    else if (e.key === 'Delete' && canManage && manageable(row)) confirmDelete(row);
                  },
                })}
                rowTestId={(row) => `material-row-${row.name}`}
                empty={emptyText}
                failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
                showTotal={(total, capped) => t(capped ? 'totalCapped' : 'total', { count: total })}
              />
            ) : (
              <>
                <div className="mq-list-tools">
                  <div className="mq-list-tools-main">{toolbar}</div>
                  {rows.length > 0 ? (
                    <Checkbox
                      checked={rows.every((r) => selected.includes(r.id))}
                      indeterminate={
                        rows.some((r) => selected.includes(r.id)) && !rows.every((r) => selected.includes(r.id))
                      }
                      onChange={(e) => setSelected(e.target.checked ? rows.filter(manageable).map((r) => r.id) : [])}
                      data-testid="material-select-all"
                    >
                      {t('selectPage')}
                    </Checkbox>
                  ) : null}
                </div>
                <MaterialGrid
                  rows={rows}
                  loading={list.isFetching}
                  empty={list.isError ? t('loadFailed') : emptyText}
                  selected={selected}
                  onToggle={(id, on) => setSelected((s) => (on ? [...s, id] : s.filter((x) => x !== id)))}
                  onOpen={setPreviewing}
                  onDelete={canManage ? (row) => manageable(row) && confirmDelete(row) : undefined}
                  actions={gridActions}
                />
                <Pagination
                  className="mq-material-pagination"
                  {...listPagination(listState, list.data?.total ?? 0, (total) =>
                    t(list.data?.totalCapped ? 'totalCapped' : 'total', { count: total }),
                  )}
                />
              </>
            )}
          </Card>
        </div>
      </div>
      <PreviewDialog row={previewing} onClose={() => setPreviewing(null)} />
      <MaterialRenameDialog row={renaming} onClose={() => setRenaming(null)} />
      <MaterialMoveDialog
        ids={moving}
        onClose={() => setMoving(null)}
        onDone={() => {
          setMoving(null);
          setSelected([]);
        }}
      />
      <MediaDialog open={addingMedia} folderId={filters.folderId} onClose={() => setAddingMedia(false)} />
      <UploadDialog open={uploading} folderId={filters.folderId} onClose={() => setUploading(false)} />
      <PermissionDialog
        open={sharing !== null}
        refType={sharing?.refType ?? RefType.material}
        refIds={sharing?.ids ?? []}
        names={sharing?.names ?? []}
        onClose={() => setSharing(null)}
        onDone={() => {
          setSelected([]);
          refresh();
        }}
      />
    </div>
  );
}

/** The category filter: the enterprise's material categories. */
function CategoryFilter() {
  const { t } = useTranslation('material');
  const categories = useCategories();
  return (
    <Form.Item name="categoryId" label={t('field.category')}>
      <Select
        allowClear
        style={{ width: 130 }}
        placeholder={t('all')}
        loading={categories.isLoading}
        options={categories.data?.map((c) => ({ value: c.id, label: c.name }))}
        data-testid="material-filter-category"
      />
    </Form.Item>
  );
}

/** The uploader filter: the enterprise's accounts (the permission dialog's list). */
function UploaderFilter() {
  const { t } = useTranslation('material');
  const accounts = useQuery({
    queryKey: ['permission', 'subAccounts'],
    queryFn: () => call('permissionSubAccounts', {}),
  });
  return (
    <Form.Item name="uploaderId" label={t('field.uploader')}>
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        style={{ width: 140 }}
        placeholder={t('all')}
        loading={accounts.isLoading}
        options={accounts.data?.map((a) => ({ value: a.id, label: a.name }))}
        data-testid="material-filter-uploader"
      />
    </Form.Item>
  );
}
