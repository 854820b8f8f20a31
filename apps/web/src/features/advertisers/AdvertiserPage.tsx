import { type Advertiser, Perm } from '@marquee/protocol';
import { Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { enabledLook, tagColumn, timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { useDictionary } from '../../components/pickers/useDictionary';
import { statusOperations, statusOptions } from '../../components/statusOperations';
import { AdvertiserDialog } from './AdvertiserDialog';

/**
 * Advertiser users (/user/adv): advertiser accounts of the caller's enterprise within the
 * caller's data scope (plus those assigned to them), with add, edit, enable/pause and delete.
 */
export default function AdvertiserPage() {
  const { t } = useTranslation(['advertisers', 'common']);
  const [dialog, setDialog] = useState<{ open: boolean; editing: Advertiser | null }>({ open: false, editing: null });

  const setStatus = useCallMutation('advertiserSetStatus', {
    success: (_r, v) => t(v.status === 'paused' ? 'toast.paused' : 'toast.enabled'),
  });
  const remove = useCallMutation('advertiserDelete', { success: t('toast.deleted') });

  // Industries are the dictionary's (issue 31): the filter offers every entry (disabled ones
  // too: advertisers keep them), the column names a code in the reader's language.
  const industries = useDictionary('industry');

  const manage = { authCode: Perm.userAdv, notForMonitor: true };
  const list = useListPage({
    id: 'advertisers',
    endpoint: 'advertiserList',
    filters: [
      { key: 'loginName', label: t('field.loginName'), testId: 'adv-filter-login' },
      { key: 'realName', label: t('field.realName'), testId: 'adv-filter-name' },
      { key: 'phone', label: t('field.phone') },
      {
        key: 'status',
        kind: 'select',
        label: t('field.status'),
        width: 120,
        placeholder: t('all'),
        options: statusOptions(t),
        testId: 'adv-filter-status',
      },
      {
        key: 'industry',
        kind: 'select',
        label: t('field.industry'),
        width: 140,
        showSearch: true,
        placeholder: t('all'),
        options: industries.items.map((i) => ({ value: i.code, label: i.label })),
        loading: industries.loading,
        testId: 'adv-filter-industry',
      },
    ],
    operationsLabel: t('actions'),
    columns: [
      { prop: 'loginName', label: t('field.loginName'), width: 150, ellipsis: true, sortable: true },
      { prop: 'realName', label: t('field.realName'), width: 160, ellipsis: true, sortable: true },
      { prop: 'phone', label: t('field.phone'), width: 130 },
      { prop: 'email', label: t('field.email'), width: 180, ellipsis: true },
      {
        prop: 'industry',
        label: t('field.industry'),
        width: 130,
        ellipsis: true,
        slot: (code: string | null) => (code ? industries.label(code) || code : '-'),
      },
      { prop: 'deptName', label: t('field.dept'), width: 130, ellipsis: true },
      {
        prop: 'staff',
        label: t('field.staff'),
        width: 180,
        slot: (staff: Advertiser['staff']) =>
          staff.length ? staff.map((s) => <Tag key={s.id}>{s.realName || s.loginName}</Tag>) : '-',
      },
      tagColumn<Advertiser>('status', t('field.status'), enabledLook(t)),
      timeColumn<Advertiser>('createdAt', t('field.createdAt'), { sortable: true }),
    ],
    operations: [
      {
        ...manage,
        key: 'edit',
        label: t('edit'),
        handler: (row) => setDialog({ open: true, editing: row }),
        testId: (row) => `adv-edit-${row.loginName}`,
      },
      ...statusOperations<Advertiser>(
        (row, status) => setStatus.mutateAsync({ id: row.id, status }),
        {
          ...manage,
          label: t('pause'),
          confirm: (row) => ({ title: t('confirm.pause', { name: row.loginName }) }),
          testId: (row) => `adv-pause-${row.loginName}`,
        },
        { ...manage, label: t('enable'), testId: (row) => `adv-enable-${row.loginName}` },
      ),
      {
        ...manage,
        key: 'delete',
        label: t('delete'),
        danger: true,
        confirm: (row) => ({ title: t('confirm.delete', { name: row.loginName }) }),
        handler: (row) => remove.mutateAsync({ id: row.id }),
        testId: (row) => `adv-delete-${row.loginName}`,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      testPrefix="adv"
      className="mq-advertisers"
      title={t('title')}
      toolbar={
        <AddButton
          label={t('add')}
          notForMonitor
          onClick={() => setDialog({ open: true, editing: null })}
          testId="adv-add"
        />
      }
      rowTestId={(row) => `adv-row-${row.loginName}`}
      empty={t('empty')}
      showTotal={(total) => t('total', { count: total })}
    >
      <AdvertiserDialog
        open={dialog.open}
        editing={dialog.editing}
        onClose={() => setDialog({ open: false, editing: dialog.editing })}
      />
    </ListPage>
  );
}
