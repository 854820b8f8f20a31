import { endpoints, loginAccountSchema } from '@marquee/protocol';
import { Form, Input, Radio, Select, type SelectProps, TreeSelect, type TreeSelectProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { requiredRule, zodRule } from '../../components/zodRule';
import { useCan } from '../../session/useCan';
import { deptOptions, useDeptTree, useRoleOptions } from '../dept/queries';

/**
 * Fields every account form shares (accounts, a company's administrator, advertisers): the
 * login account with its rule and hint, the account type, and the department and role pickers.
 */
export function LoginNameField({ name = 'loginName', testId }: { name?: string; testId: string }) {
  const { t } = useTranslation(['accounts', 'validation']);
  return (
    <Form.Item
      name={name}
      label={t('field.loginName')}
      rules={[requiredRule(t), zodRule(loginAccountSchema, t)]}
      extra={t('field.loginNameHint')}
    >
      <Input autoComplete="off" data-testid={testId} />
    </Form.Item>
  );
}

export function AccountTypeField() {
  const { t } = useTranslation('accounts');
  return (
    <Form.Item name="accountType" label={t('field.accountType')}>
      <Radio.Group
        options={[
          { value: 'enterprise', label: t('accountType.enterprise') },
          { value: 'individual', label: t('accountType.individual') },
        ]}
      />
    </Form.Item>
  );
}

type PickerProps<P> = Omit<P, 'treeData' | 'options'> & {
  testId: string;
  /** Loads the options (e.g. only while the dialog is open). */
  enabled?: boolean;
};

/**
 * Whether the caller may read the department tree (dept.tree's permission): a list page shows
 * its department filter only then, instead of a 'no permission' message to staff without it.
 */
export function useCanPickDept(): boolean {
  return useCan()(endpoints.deptTree.permission);
}

/** The department tree picker (single or `multiple`) of account forms, filters and dialogs. */
export function DeptPicker({ testId, enabled = true, ...rest }: PickerProps<TreeSelectProps>) {
  const { t } = useTranslation('accounts');
  const allowed = useCanPickDept();
  const depts = useDeptTree(enabled && allowed);
  const treeData = useMemo(() => deptOptions(depts.data ?? []), [depts.data]);
  return (
    <TreeSelect
      treeData={treeData}
      treeDefaultExpandAll
      loading={depts.isLoading}
      showSearch={{ treeNodeFilterProp: 'title' }}
      placeholder={t('dept.choose')}
      data-testid={testId}
      {...rest}
    />
  );
}

/** The role picker (single, or `mode="multiple"`) of account forms, filters and dialogs. */
export function RolePicker({ testId, enabled = true, ...rest }: PickerProps<SelectProps<string | string[]>>) {
  const { t } = useTranslation('accounts');
  const roles = useRoleOptions(enabled);
  return (
    <Select
      options={roles.data ?? []}
      loading={roles.isLoading}
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('account.chooseRoles')}
      data-testid={testId}
      {...rest}
    />
  );
}
