import { Select, type SelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';

/** The roles the caller may give (role.options) as options, loaded only while `enabled`. */
export function useRoleOptions(enabled = true) {
  return useCallQuery('roleOptions', {}, { enabled, staleTime: 30_000 });
}

export type RolePickerProps = Omit<SelectProps<string | string[]>, 'options'> & {
  testId: string;
  /** Loads the options (e.g. only while the dialog is open). */
  enabled?: boolean;
};

/**
 * THE role picker: one role, or several with `mode="multiple"`, among the roles the caller may
 * give (an account's roles, the roles of a batch of accounts, an invitation's role).
 */
export function RolePicker({ testId, enabled = true, ...rest }: RolePickerProps) {
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
