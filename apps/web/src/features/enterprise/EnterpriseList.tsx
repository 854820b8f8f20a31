import { type Endpoints, type EnterpriseRow, formatTime, Perm, type Req } from '@marquee/protocol';
import { Descriptions, Drawer, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { enabledLook, tagColumn, timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { statusOperations, statusOptions } from '../../components/statusOperations';
import { EnterpriseDialog } from './EnterpriseDialog';

/** Descriptions of one enterprise (the list's detail drawer and the own-enterprise card). */
export function EnterpriseDescriptions({ ent, column = 3 }: { ent: EnterpriseRow; column?: number }) {
  const { t } = useTranslation('accounts');
  return (
    <Descriptions size="small" column={column} data-testid="company-info">
      <Descriptions.Item label={t('field.companyName')}>{ent.name}</Descriptions.Item>
      <Descriptions.Item label={t('field.kind')}>{t(`kind.${ent.kind}`)}</Descriptions.Item>
      <Descriptions.Item label={t('field.socialCreditCode')}>{ent.socialCreditCode || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.contact')}>{ent.contact || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.phone')}>{ent.phone || '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.accountType')}>{t(`accountType.${ent.accountType}`)}</Descriptions.Item>
      <Descriptions.Item label={t('field.admin')}>{ent.adminLoginName ?? '-'}</Descriptions.Item>
      <Descriptions.Item label={t('field.accountCount')}>{ent.accountCount}</Descriptions.Item>
      <Descriptions.Item label={t('field.status')}>
        <Tag color={ent.status === 'enabled' ? 'success' : 'default'}>{t(`status.${ent.status}`)}</Tag>
      </Descriptions.Item>
      {ent.parentName ? <Descriptions.Item label={t('field.parent')}>{ent.parentName}</Descriptions.Item> : null}
      <Descriptions.Item label={t('field.createdAt')}>{formatTime(ent.createdAt)}</Descriptions.Item>
    </Descriptions>
  );
}

/**
 * The companies and agent companies the platform operator (or an agent) manages: filters in
 * the URL, add and edit dialogs, pause and enable with confirmation, a detail drawer.
 */
export function EnterpriseList({ allowAgent }: { allowAgent: boolean }) {
  const { t } = useTranslation(['accounts', 'common']);
  const [dialog, setDialog] = useState<{ open: boolean; editing: EnterpriseRow | null }>({
    open: false,
    editing: null,
  });
  const [viewing, setViewing] = useState<EnterpriseRow | null>(null);

  const setStatus = useCallMutation('enterpriseSetStatus', {
    success: (_r, v) => t(v.status === 'paused' ? 'toast.paused' : 'toast.enabled'),
  });

  const list = useListPage({
    id: 'enterprises',
    endpoint: 'enterpriseList',
    // The URL keys are the list's own (entName...): its page has other lists in other tabs.
    filters: [
      { key: 'entName', label: t('field.companyName'), testId: 'company-filter-name' },
      { key: 'entCode', label: t('field.socialCreditCode'), maxLength: 18 },
      {
        key: 'entKind',
        kind: 'select',
        label: t('field.kind'),
        width: 130,
        placeholder: t('filter.all'),
        options: [
          { value: 'enterprise', label: t('kind.enterprise') },
          { value: 'agent', label: t('kind.agent') },
        ],
      },
      {
        key: 'entStatus',
        kind: 'select',
        label: t('field.status'),
        width: 110,
        placeholder: t('filter.all'),
        options: statusOptions(t),
      },
    ],
    request: (f, page) =>
      ({
        ...page,
        name: f.entName,
        socialCreditCode: f.entCode,
        kind: f.entKind,
        status: f.entStatus,
      }) as Req<Endpoints['enterpriseList']>,
    columns: [
      {
        prop: 'name',
        label: t('field.companyName'),
        width: 220,
        ellipsis: true,
        sortable: true,
        slot: (name: string, row) => (
          <Typography.Link onClick={() => setViewing(row)} title={name} data-testid={`company-view-${row.name}`}>
            {name}
          </Typography.Link>
        ),
      },
      {
        prop: 'kind',
        label: t('field.kind'),
        width: 130,
        slot: (v: string) => <Tag color={v === 'agent' ? 'purple' : 'blue'}>{t(`kind.${v}`)}</Tag>,
      },
      { prop: 'socialCreditCode', label: t('field.socialCreditCode'), width: 190 },
      { prop: 'contact', label: t('field.contact'), width: 120, ellipsis: true },
      { prop: 'phone', label: t('field.phone'), width: 140 },
      {
        prop: 'accountType',
        label: t('field.accountType'),
        width: 120,
        slot: (v: string) => t(`accountType.${v}`),
      },
      { prop: 'adminLoginName', label: t('field.admin'), width: 140, ellipsis: true },
      { prop: 'accountCount', label: t('field.accountCount'), width: 110, sortable: true, showThousands: true },
      tagColumn<EnterpriseRow>('status', t('field.status'), enabledLook(t)),
      timeColumn<EnterpriseRow>('createdAt', t('field.createdAt'), { sortable: true }),
    ],
    operations: [
      {
        key: 'edit',
        label: t('action.edit'),
        authCode: Perm.userCompany,
        handler: (row) => setDialog({ open: true, editing: row }),
        testId: (row) => `company-edit-${row.name}`,
      },
      ...statusOperations<EnterpriseRow>(
        (row, status) => setStatus.mutateAsync({ id: row.id, status }),
        {
          label: t('action.pause'),
          authCode: Perm.userCompanyManage,
          danger: true,
          confirm: (row) => ({
            title: t('enterprise.pauseConfirm', { name: row.name }),
            description: t('enterprise.pauseHint'),
          }),
          testId: (row) => `company-pause-${row.name}`,
        },
        {
          label: t('action.enable'),
          authCode: Perm.userCompanyManage,
          confirm: (row) => ({ title: t('enterprise.enableConfirm', { name: row.name }) }),
          testId: (row) => `company-enable-${row.name}`,
        },
      ),
    ],
  });

  return (
    <ListPage
      list={list}
      bare
      testId="company-list"
      filterTestIds={{ search: 'company-search', reset: 'company-reset' }}
      toolbar={
        <AddButton
          label={t('enterprise.add')}
          onClick={() => setDialog({ open: true, editing: null })}
          testId="company-add"
        />
      }
      rowTestId={(row) => `company-row-${row.name}`}
      empty={t('enterprise.empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
      showTotal={(total) => t('total', { count: total })}
    >
      <EnterpriseDialog
        open={dialog.open}
        editing={dialog.editing}
        allowAgent={allowAgent}
        onClose={() => setDialog({ open: false, editing: null })}
      />
      <Drawer
        open={viewing !== null}
        onClose={() => setViewing(null)}
        title={viewing?.name}
        size={560}
        data-testid="company-drawer"
      >
        {viewing ? <EnterpriseDescriptions ent={viewing} column={1} /> : null}
      </Drawer>
    </ListPage>
  );
}
