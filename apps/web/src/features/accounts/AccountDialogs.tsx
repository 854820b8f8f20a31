import { type AccountRow, emailSchema, endpointDomain, optionalPhoneSchema, realNameSchema } from '@marquee/protocol';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { DeptPicker } from '../../components/pickers/DeptPicker';
import { RolePicker } from '../../components/pickers/RolePicker';
import { requiredRule } from '../../components/zodRule';
import { AccountTypeField, LoginNameField, PersonFields, personFields } from './AccountFields';
import { PasswordFields } from './PasswordFields';

/**
 * What an account change refreshes: the accounts, and the counts of accounts shown by the
 * department tree, the roles and the enterprise.
 */
export const ACCOUNT_SHOWN_IN = [
  endpointDomain('accountList'),
  endpointDomain('deptTree'),
  endpointDomain('roleList'),
  endpointDomain('enterpriseDetail'),
];

interface AccountValues {
  loginName: string;
  realName: string;
  phone?: string;
  email?: string;
  accountType: 'individual' | 'enterprise';
  roleIds: string[];
  deptIds: string[];
  password: string;
  confirmPassword: string;
}

/** Adds an account by hand (login account, strong password with confirmation) or edits one. */
export function AccountDialog({
  open,
  editing,
  onClose,
}: {
  open: boolean;
  editing: AccountRow | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['accounts', 'validation']);
  const isEdit = editing !== null;

  const submit = async (v: AccountValues) => {
    const fields = {
      ...personFields(v),
      accountType: v.accountType,
      roleIds: v.roleIds ?? [],
      deptIds: v.deptIds ?? [],
    };
    if (editing) await call('accountUpdate', { id: editing.id, ...fields });
    else {
      await call('accountAdd', {
        ...fields,
        loginName: v.loginName.trim(),
        password: v.password,
        confirmPassword: v.confirmPassword,
      });
    }
  };

  const required = requiredRule(t);
  return (
    <FormDialog<AccountValues>
      open={open}
      title={t(isEdit ? 'account.editTitle' : 'account.addTitle')}
      onClose={onClose}
      submit={submit}
      success={t(isEdit ? 'toast.accountUpdated' : 'toast.accountAdded')}
      invalidates={ACCOUNT_SHOWN_IN}
      values={
        editing
          ? {
              realName: editing.realName,
              phone: editing.phone,
              email: editing.email,
              accountType: editing.accountType,
              roleIds: editing.roles.map((r) => r.id),
              deptIds: editing.departments.map((d) => d.id),
            }
          : undefined
      }
      initialValues={{ accountType: 'enterprise', roleIds: [], deptIds: [] }}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      submitTestId="account-dialog-submit"
      testId="account-dialog"
      className="mq-form-grid"
      width={760}
    >
      {!isEdit ? <LoginNameField testId="account-dialog-login" /> : null}
      <PersonFields
        t={t}
        schemas={{ realName: realNameSchema, phone: optionalPhoneSchema, email: emailSchema }}
        testIdPrefix="account-dialog"
      />
      <AccountTypeField />
      <Form.Item
        className="mq-span"
        name="deptIds"
        label={t('field.departments')}
        rules={[{ ...required, type: 'array', min: 1 }]}
      >
        <DeptPicker multiple enabled={open} testId="account-dialog-depts" />
      </Form.Item>
      <Form.Item className="mq-span" name="roleIds" label={t('field.roles')}>
        <RolePicker mode="multiple" enabled={open} testId="account-dialog-roles" />
      </Form.Item>
      {!isEdit ? <PasswordFields testIdPrefix="account-dialog" /> : null}
    </FormDialog>
  );
}

/** The administrator sets a new strong password; the user must change it at next login. */
export function ResetPasswordDialog({ account, onClose }: { account: AccountRow | null; onClose: () => void }) {
  const { t } = useTranslation('accounts');
  return (
    <FormDialog<{ password: string; confirmPassword: string }>
      open={account !== null}
      title={t('account.resetTitle', { name: account?.loginName ?? '' })}
      onClose={onClose}
      submit={(v) => call('accountResetPassword', { id: account?.id ?? '', ...v })}
      success={t('toast.passwordReset')}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      submitTestId="reset-submit"
    >
      <p className="mq-org-hint">{t('account.resetHint')}</p>
      <PasswordFields testIdPrefix="reset" />
    </FormDialog>
  );
}

/** Replaces the roles, or the departments, of the selected accounts. */
export function BatchDialog({
  kind,
  ids,
  onClose,
  onDone,
}: {
  kind: 'roles' | 'depts' | null;
  ids: string[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation(['accounts', 'validation']);
  const submit = async ({ values }: { values: string[] }) => {
    if (kind === 'roles') await call('accountBatchRoles', { ids, roleIds: values ?? [] });
    else await call('accountBatchDepts', { ids, deptIds: values ?? [] });
  };
  return (
    <FormDialog<{ values: string[] }>
      open={kind !== null}
      title={t(kind === 'roles' ? 'account.batchRolesTitle' : 'account.batchDeptsTitle', { count: ids.length })}
      onClose={onClose}
      submit={submit}
      success={t('toast.batchSaved', { count: ids.length })}
      invalidates={ACCOUNT_SHOWN_IN}
      onDone={onDone}
      initialValues={{ values: [] }}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      submitTestId="batch-submit"
    >
      <p className="mq-org-hint">{t(kind === 'roles' ? 'account.batchRolesHint' : 'account.batchDeptsHint')}</p>
      {kind === 'roles' ? (
        <Form.Item name="values" label={t('field.roles')}>
          <RolePicker mode="multiple" enabled={kind !== null} testId="batch-roles-select" />
        </Form.Item>
      ) : (
        <Form.Item
          name="values"
          label={t('field.departments')}
          rules={[{ required: true, type: 'array', min: 1, message: t('required', { ns: 'validation' }) }]}
        >
          <DeptPicker multiple enabled={kind !== null} testId="batch-depts-select" />
        </Form.Item>
      )}
    </FormDialog>
  );
}
