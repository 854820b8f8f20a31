import { useTranslation } from 'react-i18next';
import { NewPasswordFields } from '../../components/NewPasswordFields';

/** A new password and its confirmation with the company texts. */
export function PasswordFields({ testIdPrefix }: { testIdPrefix: string }) {
  const { t } = useTranslation('accounts');
  return (
    <NewPasswordFields
      testIdPrefix={testIdPrefix}
      labels={{ password: t('field.password'), confirm: t('field.confirmPassword') }}
    />
  );
}
