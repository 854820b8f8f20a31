import { EditOutlined } from '@ant-design/icons';
import { Perm } from '@marquee/protocol';
import { Button, Card, Result, Skeleton, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { useCan } from '../../session/useCan';
import { DeptPanel } from '../dept/DeptPanel';
import DictionaryPanel from '../dictionaries/DictionaryPanel';
import { EnterpriseDialog } from '../enterprise/EnterpriseDialog';
import { EnterpriseDescriptions, EnterpriseList } from '../enterprise/EnterpriseList';
import StoresTab from '../stores/StoresTab';
import { AccountsPanel } from './AccountsPanel';
import './company.css';

/**
 * /user/company. The platform operator (or an agent) gets the list of the companies they
 * manage; everyone sees their own enterprise's information (editable by its administrator)
 * with the Departments and Accounts tabs; the platform operator also keeps the dictionaries
 * (issue 31). The tab is kept in the URL (`?tab=`).
 */
export default function CompanyPage() {
  const { t } = useTranslation('accounts');
  const can = useCan();
  const [params, setParams] = useSearchParams();
  const [editing, setEditing] = useState(false);
  const own = useCallQuery('enterpriseDetail', {});

  if (own.isLoading) {
    return (
      <Card className="mq-view">
        <Skeleton active />
      </Card>
    );
  }
  if (own.isError || !own.data) {
    return (
      <Result
        status="warning"
        title={t('loadFailed')}
        extra={<Button onClick={() => own.refetch()}>{t('action.retry')}</Button>}
      />
    );
  }

  const ent = own.data;
  const manages = ent.kind !== 'enterprise' && can(Perm.userCompanyManage);
  const topLevel = can(Perm.userCompanyManage) || can(Perm.userAccountManage);
  const items = [
    ...(manages
      ? [
          {
            key: 'companies',
            label: t('tab.companies'),
            children: <EnterpriseList allowAgent={ent.kind === 'provider'} />,
          },
        ]
      : []),
    { key: 'departments', label: t('tab.departments'), children: <DeptPanel topLevel={topLevel} /> },
    { key: 'accounts', label: t('tab.accounts'), children: <AccountsPanel /> },
    // Stores (issue 9): the places screens stand in, beside departments.
    { key: 'stores', label: t('tab', { ns: 'stores' }), children: <StoresTab /> },
    // Dictionaries (issue 31): the platform's lists pickers offer, the platform operator's alone.
    ...(ent.kind === 'provider' && can(Perm.dictionaryManage)
      ? [{ key: 'dictionaries', label: t('tab', { ns: 'dictionaries' }), children: <DictionaryPanel /> }]
      : []),
  ];
  const requested = params.get('tab');
  const active = items.some((i) => i.key === requested) ? (requested as string) : items[0].key;
  const canEdit = can(Perm.userAccountManage) && can(Perm.userDeptManage);

  return (
    <div className="mq-view mq-company" data-testid="company-page">
      <Card
        size="small"
        className="mq-company-info"
        title={ent.name}
        extra={
          canEdit ? (
            <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="company-own-edit">
              {t('enterprise.editOwn')}
            </Button>
          ) : null
        }
      >
        <EnterpriseDescriptions ent={ent} />
      </Card>
      <Card size="small" className="mq-company-tabs">
        <Tabs
          activeKey={active}
          onChange={(key) => setParams({ tab: key }, { replace: true })}
          items={items.map((i) => ({ ...i, label: <span data-testid={`company-tab-${i.key}`}>{i.label}</span> }))}
          destroyOnHidden
        />
      </Card>
      <EnterpriseDialog open={editing} editing={ent} allowAgent={false} onClose={() => setEditing(false)} />
    </div>
  );
}
