import { DeleteOutlined, EditOutlined, PlusOutlined, TagsOutlined } from '@ant-design/icons';
import { formatTime, Perm, type TagCategoryRow, type TagRow, tagCategoryNameSchema } from '@marquee/protocol';
import { Button, Card, Empty, Form, Input, Popconfirm, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { FormDialog } from '../../components/FormDialog';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';
import { requiredRule, zodRule } from '../../components/zodRule';
import { BulkShareButton } from './BulkShareDialog';
import { BulkTagDialog } from './BulkTagDialog';
import '../../components/categoryList.css';
import './deviceGroups.css';
import { AddButton } from '../../components/AddButton';
import { editDeleteOperations } from '../../components/editDeleteOperations';

/**
 * Device tags (/device/tags): tag categories on the left (with their tag counts; add, rename,
 * delete an empty one), the tags of the chosen category on the right with the caller's
 * visible device counts; add and edit open /device/tag/addView; bulk tagging and the bulk
 * device allocation (by tag) are toolbar dialogs.
 */
export default function TagsPage() {
  const { t } = useTranslation(['deviceTags', 'common']);
  const navigate = useNavigate();
  const [category, setCategory] = useState<{ open: boolean; editing: TagCategoryRow | null }>({
    open: false,
    editing: null,
  });
  const [bulkTag, setBulkTag] = useState(false);

  const categories = useCallQuery('tagCategoryList', {});
  // A deleted tag leaves the devices that carried it (the device list shows their tags).
  const removeTag = useCallMutation('deviceTagDelete', { success: t('toast.deleted'), invalidates: ['devices'] });
  const removeCategory = useCallMutation('tagCategoryDelete', {
    success: t('category.deleted'),
    onSuccess: (_r, { id }) => {
      if (list.state.filters.categoryId === id) list.refine({ categoryId: undefined });
    },
  });
  const chooseCategory = (id: string | undefined) => list.refine({ categoryId: id });

  const list = useListPage({
    id: 'deviceTags',
    endpoint: 'deviceTagList',
    filters: [
      {
        key: 'name',
        label: t('filter.name'),
        placeholder: t('filter.namePlaceholder'),
        maxLength: 64,
        testId: 'tag-filter-name',
      },
    ],
    // The category chosen beside the list.
    scope: ['categoryId'],
    operationsLabel: t('column.actions'),
    columns: [
      { prop: 'name', label: t('column.name'), width: 200, ellipsis: true },
      { prop: 'categoryName', label: t('column.category'), width: 180, ellipsis: true },
      { prop: 'deviceCount', label: t('column.devices'), width: 110, align: 'right', showThousands: true },
      { prop: 'updatedAt', label: t('column.updatedAt'), width: 180, slot: (v: string) => formatTime(v) },
    ],
    operations: editDeleteOperations<TagRow>({
      prefix: 'tag',
      shared: { authCode: Perm.deviceTags, notForMonitor: true },
      edit: (row) => navigate(`/device/tag/addView?id=${encodeURIComponent(row.id)}`),
      remove: ({ id }) => removeTag.mutateAsync({ ids: [id] }),
      editLabel: t('edit'),
      deleteLabel: t('delete'),
      confirm: (row) => ({ title: t('confirm.delete', { name: row.name }), description: t('confirm.deleteHint') }),
    }),
  });
  const { filters } = list.state;

  const cats = categories.data ?? [];
  return (
    <ListPage
      list={list}
      testId="device-tags-page"
      className="mq-device-tags"
      filterTestIds={{ search: 'tag-search', reset: 'tag-reset' }}
      title={t('title')}
      side={
        <Card
          size="small"
          title={t('categories')}
          extra={
            <NotForMonitor>
              <Button
                size="small"
                type="link"
                icon={<PlusOutlined />}
                onClick={() => setCategory({ open: true, editing: null })}
                data-testid="category-add"
              >
                {t('category.add')}
              </Button>
            </NotForMonitor>
          }
        >
          {categories.isPending ? <Spin /> : null}
          {!categories.isPending && cats.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('categories.empty')} />
          ) : null}
          <ul className="mq-category-list mq-tag-categories" aria-label={t('categories')}>
            {cats.length > 0 ? (
              <li>
                <button
                  type="button"
                  className={!filters.categoryId ? 'is-active' : undefined}
                  aria-pressed={!filters.categoryId}
                  onClick={() => chooseCategory(undefined)}
                >
                  {t('categories.all')}
                </button>
              </li>
            ) : null}
            {cats.map((c) => (
              <li key={c.id} data-testid={`category-${c.name}`}>
                <button
                  type="button"
                  className={filters.categoryId === c.id ? 'is-active' : undefined}
                  aria-pressed={filters.categoryId === c.id}
                  onClick={() => chooseCategory(c.id)}
                >
                  <span className="mq-tag-category-name">{c.name}</span>
                  <Typography.Text type="secondary">{t('category.tagCount', { count: c.tagCount })}</Typography.Text>
                </button>
                <NotForMonitor>
                  <Space size={0}>
                    <Button
                      size="small"
                      type="text"
                      icon={<EditOutlined />}
                      aria-label={t('category.edit', { name: c.name })}
                      title={t('category.edit', { name: c.name })}
                      onClick={() => setCategory({ open: true, editing: c })}
                      data-testid={`category-edit-${c.name}`}
                    />
                    <Popconfirm
                      title={t('category.confirmDelete', { name: c.name })}
                      okButtonProps={confirmOkProps(true)}
                      okText={t('delete')}
                      cancelText={t('form.cancel')}
                      onConfirm={() => removeCategory.mutateAsync({ id: c.id })}
                    >
                      <Button
                        size="small"
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('category.delete', { name: c.name })}
                        title={t('category.delete', { name: c.name })}
                        data-testid={`category-delete-${c.name}`}
                      />
                    </Popconfirm>
                  </Space>
                </NotForMonitor>
              </li>
            ))}
          </ul>
        </Card>
      }
      toolbar={
        <NotForMonitor>
          <Space wrap>
            <AddButton
              label={t('add')}
              onClick={() =>
                navigate(
                  `/device/tag/addView${filters.categoryId ? `?categoryId=${encodeURIComponent(filters.categoryId)}` : ''}`,
                )
              }
              testId="tag-add"
            />
            <Button icon={<TagsOutlined />} onClick={() => setBulkTag(true)} data-testid="tag-bulk">
              {t('bulkTag')}
            </Button>
            <BulkShareButton defaultBy="tag" testId="tag-bulk-share" />
          </Space>
        </NotForMonitor>
      }
      rowTestId={(row) => `tag-row-${row.name}`}
      empty={t('empty')}
      emptyImage={Empty.PRESENTED_IMAGE_SIMPLE}
      showTotal={(total) => t('total', { count: total })}
    >
      <FormDialog<{ name: string }>
        open={category.open}
        title={t(category.editing ? 'category.editTitle' : 'category.addTitle')}
        onClose={() => setCategory({ open: false, editing: category.editing })}
        submit={async (v) => {
          if (category.editing) await call('tagCategoryUpdate', { id: category.editing.id, name: v.name.trim() });
          else await call('tagCategoryCreate', { name: v.name.trim() });
        }}
        success={t(category.editing ? 'category.updated' : 'category.created')}
        invalidates={['deviceGroups']}
        values={category.editing ? { name: category.editing.name } : undefined}
        okText={t('form.save')}
        cancelText={t('form.cancel')}
        submitTestId="category-dialog-submit"
        testId="category-dialog"
      >
        <Form.Item name="name" label={t('category.name')} rules={[requiredRule(t), zodRule(tagCategoryNameSchema, t)]}>
          <Input placeholder={t('category.namePlaceholder')} data-testid="category-dialog-name" />
        </Form.Item>
      </FormDialog>
      <BulkTagDialog open={bulkTag} onClose={() => setBulkTag(false)} />
    </ListPage>
  );
}
